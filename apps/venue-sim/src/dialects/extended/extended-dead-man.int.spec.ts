import { DeadManWorld } from '../../control/dead-man-test-kit';

jest.setTimeout(60_000);

// Extended's dead-man switch (`POST /api/v1/user/deadmanswitch?countdownTime=`)
// armed by the live client through ccxt's `cancelAllOrdersAfter`; time passes
// for the switches alone, and the simulator's own records tell what it canceled.
describe('Extended dead-man switch through the live client', () => {
  let world: DeadManWorld;

  beforeEach(async () => {
    world = await DeadManWorld.start('extended', 'ETH-USD', `dm-extended:${Date.now()}`);
  });

  afterEach(async () => {
    await world.stop();
  });

  it('cancels every resting order of the account once the countdown ends, and nothing after', async () => {
    const armed = await world.deadMan.arm(60_000);
    expect(armed).toEqual({ armed: true, cancelsAtMs: expect.any(Number) });
    await world.rest(2);
    expect(await world.statuses()).toEqual({ open: 2 });
    expect(await world.state()).toMatchObject({ armed: true });

    expect(await world.elapse(30_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 2 });
    const fired = await world.elapse(61_000);
    expect(fired).toEqual([expect.objectContaining({ armed: false, lastCanceled: 2 })]);
    expect(await world.statuses()).toEqual({ canceled: 2 });

    await world.rest(1);
    expect(await world.elapse(3_600_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ canceled: 2, open: 1 });
  });

  it('is pushed forward by arming again', async () => {
    await world.deadMan.arm(20_000);
    await world.rest(1);
    const again = await world.deadMan.arm(120_000);
    expect(await world.elapse(30_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 1 });
    expect((await world.state()).cancelsAtMs).toBeLessThanOrEqual(
      again.armed ? again.cancelsAtMs : 0,
    );
    await world.elapse(121_000);
    expect(await world.statuses()).toEqual({ canceled: 1 });
  });

  it('is taken off by disarming (countdownTime=0)', async () => {
    await world.deadMan.arm(20_000);
    await world.rest(1);
    await world.deadMan.disarm();
    expect(await world.state()).toMatchObject({ armed: false, cancelsAtMs: null });
    expect(await world.elapse(3_600_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 1 });
  });

  it('counts whole seconds: under a second would disarm, so the client refuses it unsent', async () => {
    expect(world.deadMan.minTimeoutMs).toBe(1_000);
    const refused = await world.deadMan.arm(999);
    expect(refused).toEqual({ armed: false, reason: expect.stringContaining('1000 ms') });
    const armed = await world.deadMan.arm(1_999);
    expect(armed.armed && armed.cancelsAtMs - Date.now()).toBeLessThanOrEqual(1_000);
  });
});

describe('Extended dead-man switch in real time', () => {
  it('fires by itself when the countdown ends', async () => {
    const world = await DeadManWorld.start('extended', 'ETH-USD', `dm-extended-rt:${Date.now()}`);
    try {
      await world.rest(1);
      await world.deadMan.arm(1_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await world.statuses()).toEqual({ canceled: 1 });
      expect(await world.state()).toMatchObject({ armed: false, lastCanceled: 1 });
    } finally {
      await world.stop();
    }
  });
});
