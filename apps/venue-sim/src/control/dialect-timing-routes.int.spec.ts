import { startVenueSim, type RunningVenueSim } from '../sim-server';
import { SimControl } from '../testing/sim-control';

describe('/control/dialects/:venue/timing', () => {
  let sim: RunningVenueSim;
  let control: SimControl;
  const url = (venue: string): string => `${sim.url}/control/dialects/${venue}/timing`;
  const post = (venue: string, body: unknown): Promise<Response> =>
    fetch(url(venue), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    sim = await startVenueSim({
      seed: 3,
      tickMs: 0,
      dialectTimings: { lighter: { queue_hold_ms: 120 } },
    });
    control = new SimControl(sim.url);
  });
  afterAll(() => sim.stop());

  it("answers each venue's times: the defaults, null where no reading of it uses one", async () => {
    expect(await control.dialectTiming('paradex')).toEqual({
      queue_hold_ms: 1_000,
      history_lag_ms: 2_000,
    });
    expect(await control.dialectTiming('extended')).toEqual({
      queue_hold_ms: 1_000,
      history_lag_ms: null,
    });
    // Set at start (`dialectTimings`), over the default of 300.
    expect(await control.dialectTiming('lighter')).toEqual({
      queue_hold_ms: 120,
      history_lag_ms: null,
    });
  });

  it('sets either time, answers the times now, and a world reset keeps them', async () => {
    expect(await control.setDialectTiming('paradex', { history_lag_ms: 250 })).toEqual({
      queue_hold_ms: 1_000,
      history_lag_ms: 250,
    });
    const both = await post('paradex', { queue_hold_ms: 0, history_lag_ms: 60_000 });
    expect(both.status).toBe(200);
    await control.reset();
    expect(await control.dialectTiming('paradex')).toEqual({
      queue_hold_ms: 0,
      history_lag_ms: 60_000,
    });
  });

  it.each([
    ['a negative time', { queue_hold_ms: -1 }],
    ['a fraction of a ms', { queue_hold_ms: 1.5 }],
    ['more than a minute', { queue_hold_ms: 60_001 }],
    ['a string', { queue_hold_ms: '500' }],
    ['null', { queue_hold_ms: null }],
    ['an unknown time', { queue_hold_ms: 500, hold_ms: 500 }],
    ['a time the venue has none of', { queue_hold_ms: 500, history_lag_ms: 500 }],
  ])('refuses %s with 400 and changes nothing', async (_case, body) => {
    await control.setDialectTiming('extended', { queue_hold_ms: 700 });
    const answer = await post('extended', body);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { code: string }).code).toBe('invalid_request');
    expect((await control.dialectTiming('extended')).queue_hold_ms).toBe(700);
  });

  it('refuses a body that is not a JSON object with 400', async () => {
    const answer = await fetch(url('extended'), { method: 'POST', body: '[1]' });
    expect(answer.status).toBe(400);
  });

  it('answers 404 for a venue whose readings play with no time, or without a dialect', async () => {
    for (const venue of ['aster', 'hyperliquid', 'nowhere']) {
      expect((await fetch(url(venue))).status).toBe(404);
      expect((await post(venue, { queue_hold_ms: 1 })).status).toBe(404);
    }
  });
});
