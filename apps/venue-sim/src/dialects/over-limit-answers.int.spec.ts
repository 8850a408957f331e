import {
  call,
  publishedAgain,
  startLimitsWorld,
  type Answer,
  type LimitsWorld,
} from './published-limits-test-kit';

// Each dialect, past one of its venue's published pools (squeezed for the
// test), answers as its venue documents (docs/venues/rate-limits.md, "How the
// venue answers over the limit"), over HTTP as a client meets it.

let world: LimitsWorld;

beforeAll(async () => {
  world = await startLimitsWorld(61);
});

afterAll(async () => {
  await world.sim.stop();
});

afterEach(async () => {
  await publishedAgain(world);
});

/** Sends `request` `count` times in a row: the answers in order. */
async function burst(count: number, request: () => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i += 1) {
    answers.push(await request());
  }
  return answers;
}

const statuses = (answers: Answer[]) => answers.map((answer) => answer.status);

describe('over a published limit, each dialect answers in its venue’s words', () => {
  it('Hyperliquid: H1 refuses with 429 and a null body', async () => {
    // l2Book weighs 2 of H1.
    await world.control.setDialectRateLimits('hyperliquid', { pools: { H1: { capacity: 4 } } });
    const answers = await burst(3, () =>
      call(world, 'hyperliquid/info', { body: { type: 'l2Book', coin: 'SOL' } }),
    );
    expect(statuses(answers)).toEqual([200, 200, 429]);
    expect(answers[2].body).toBeNull();
  });

  it('Aster: A1 refuses with 429 -1003; every answer carries the used weight; exchangeInfo lists the limits in force', async () => {
    await world.control.setDialectRateLimits('aster', { pools: { A1: { capacity: 5 } } });
    const info = await call(world, 'aster/fapi/v1/exchangeInfo');
    expect((info.body as { rateLimits: unknown }).rateLimits).toEqual([
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 5 },
      { rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: 1200 },
    ]);
    // depth with limit 5 weighs 2 of A1; exchangeInfo weighed 1.
    const answers = await burst(3, () => call(world, 'aster/fapi/v1/depth?symbol=ETHUSDT&limit=5'));
    expect(statuses(answers)).toEqual([200, 200, 429]);
    expect(answers[2].body).toEqual({
      code: -1003,
      msg: 'Too many requests; current limit is 5 requests per minute. Please use the websocket for live updates to avoid polling the API.',
    });
    const used = [info, ...answers].map((answer) => answer.headers.get('x-mbx-used-weight-1m'));
    expect(used).toEqual(['1', '3', '5', '5']);
  });

  it('Paradex: P1 refuses with 429 and the x-ratelimit headers the official SDK reads', async () => {
    await world.control.setDialectRateLimits('paradex', { pools: { P1: { capacity: 2 } } });
    const before = Date.now();
    const answers = await burst(3, () => call(world, 'paradex/v1/markets'));
    expect(statuses(answers)).toEqual([200, 200, 429]);
    const { headers } = answers[2];
    expect(headers.get('x-ratelimit-limit')).toBe('2');
    expect(headers.get('x-ratelimit-remaining')).toBe('0');
    expect(headers.get('x-ratelimit-window')).toBe('60');
    // The window frees a unit a minute after the first admission.
    const reset = Number(headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 59);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 61);
  });

  it('Extended: E1 refuses with 429', async () => {
    await world.control.setDialectRateLimits('extended', { pools: { E1: { capacity: 2 } } });
    const answers = await burst(3, () => call(world, 'extended/api/v1/info/markets'));
    expect(statuses(answers)).toEqual([200, 200, 429]);
  });

  it('Lighter: L1 refuses with 429 and its code 23000', async () => {
    // orderBookDetails weighs 300 of L1; it names no account, so the IP's L1 counts it.
    await world.control.setDialectRateLimits('lighter', { pools: { L1: { capacity: 600 } } });
    const answers = await burst(3, () => call(world, 'lighter/api/v1/orderBookDetails'));
    expect(statuses(answers)).toEqual([200, 200, 429]);
    expect(answers[2].body).toEqual({ code: 23000, message: 'Too Many Requests!' });
  });
});
