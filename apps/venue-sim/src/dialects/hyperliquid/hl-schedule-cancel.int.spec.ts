import { DeadManWorld } from '../../control/dead-man-test-kit';
import type { Profile } from '../dialect-profiles';

jest.setTimeout(60_000);

const VOLUME_TEXT =
  'Cannot set scheduled cancel time until enough volume traded. Required: $1000000. Traded: $0.';

async function hlWorld(profile: Profile = {}, volume?: string): Promise<DeadManWorld> {
  const world = await DeadManWorld.start(
    'hyperliquid',
    'SOL',
    `dm-hl:${Date.now()}:${Math.random()}`,
    profile,
  );
  if (volume) {
    const response = await fetch(`${world.sim.url}/dialects/hyperliquid/_sim/volume`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: world.wallet, volume }),
    });
    expect(response.status).toBe(200);
  }
  return world;
}

// Hyperliquid's `scheduleCancel` armed by the live client through ccxt's
// `cancelAllOrdersAfter` (and taken off by the action without `time`); time
// passes for the switches alone, and the simulator's records tell what it canceled.
describe('Hyperliquid scheduleCancel through the live client', () => {
  let world: DeadManWorld;

  afterEach(async () => {
    await world.stop();
  });

  it('cancels every open order of the address when the time comes, and nothing after', async () => {
    world = await hlWorld({}, '1000000');
    expect(world.deadMan.minTimeoutMs).toBe(10_000);
    expect(await world.deadMan.arm(world.deadMan.minTimeoutMs)).toMatchObject({ armed: true });
    expect(await world.deadMan.arm(60_000)).toEqual({
      armed: true,
      cancelsAtMs: expect.any(Number),
    });
    await world.rest(2);
    expect(await world.elapse(30_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 2 });
    const [fired] = await world.elapse(61_000);
    expect(fired).toMatchObject({ armed: false, lastCanceled: 2, details: { triggersToday: 1 } });
    expect(await world.statuses()).toEqual({ canceled: 2 });
    await world.rest(1);
    expect(await world.elapse(3_600_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ canceled: 2, open: 1 });
  });

  it('is pushed forward by arming again, and taken off by the action without time', async () => {
    world = await hlWorld({}, '1000000');
    await world.deadMan.arm(10_000);
    await world.rest(1);
    await world.deadMan.arm(120_000);
    expect(await world.elapse(30_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 1 });
    await world.deadMan.disarm();
    expect(await world.state()).toMatchObject({ armed: false, cancelsAtMs: null });
    expect(await world.elapse(3_600_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 1 });
  });

  it('answers the refusals as {armed: false, reason} in the venue words', async () => {
    world = await hlWorld();
    expect(await world.deadMan.arm(60_000)).toEqual({ armed: false, reason: VOLUME_TEXT });
    await expect(world.deadMan.disarm()).rejects.toThrow(VOLUME_TEXT);
    await world.stop();
    world = await hlWorld({}, '1000000');
    const tooSoon = await world.deadMan.arm(4_000);
    expect(tooSoon).toEqual({ armed: false, reason: expect.stringMatching(/at least 5 seconds/) });
    expect(await world.state()).toMatchObject({ armed: false });
  });

  it('counts 10 triggers a day; the eleventh arming is refused', async () => {
    world = await hlWorld({}, '2500000');
    for (let trigger = 1; trigger <= 10; trigger += 1) {
      expect(await world.deadMan.arm(60_000)).toMatchObject({ armed: true });
      await world.elapse(61_000);
    }
    expect((await world.state()).details).toMatchObject({ triggersToday: 10 });
    expect(await world.deadMan.arm(60_000)).toEqual({
      armed: false,
      reason: 'Too many scheduled cancel triggers today. Max: 10.',
    });
  });

  it('under schedule_cancel_spent=accept_inert, an arming past the count is taken and never fires', async () => {
    world = await hlWorld({ schedule_cancel_spent: 'accept_inert' }, '2500000');
    for (let trigger = 1; trigger <= 10; trigger += 1) {
      await world.deadMan.arm(60_000);
      await world.elapse(61_000);
    }
    await world.rest(1);
    expect(await world.deadMan.arm(60_000)).toMatchObject({ armed: true });
    await world.elapse(61_000);
    expect(await world.statuses()).toEqual({ open: 1 });
  });
});
