import { DeadManWorld } from '../../control/dead-man-test-kit';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { SimControl } from '../../testing/sim-control';
import { LighterKit, type Owner, type Signed } from './lighter-test-kit';

jest.setTimeout(60_000);

const MINUTE = 60_000;

// Lighter's scheduled cancel-all (an L2CancelAllOrders transaction, time in
// force SCHEDULED) armed by the live client through ccxt's
// `cancelAllOrdersAfter` and taken off with an ABORT one; time passes for the
// switches alone, and the simulator's records tell what it canceled.
describe('Lighter scheduled cancel-all through the live client', () => {
  let world: DeadManWorld;

  beforeEach(async () => {
    world = await DeadManWorld.start('lighter', 'ETH', `dm-lighter:${Date.now()}`);
  });

  afterEach(async () => {
    await world.stop();
  });

  it('cancels every resting order of the account at its time, and nothing after', async () => {
    expect(world.deadMan.minTimeoutMs).toBe(5 * MINUTE + 5_000);
    // At the shortest timeout it arms, the arming still lands 5 minutes ahead on arrival.
    expect(await world.deadMan.arm(world.deadMan.minTimeoutMs)).toMatchObject({ armed: true });
    expect(await world.deadMan.arm(6 * MINUTE)).toEqual({
      armed: true,
      cancelsAtMs: expect.any(Number),
    });
    await world.rest(2);
    expect(await world.elapse(5 * MINUTE)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 2 });
    const fired = await world.elapse(6 * MINUTE + 1_000);
    expect(fired).toEqual([expect.objectContaining({ armed: false, lastCanceled: 2 })]);
    expect(await world.statuses()).toEqual({ canceled: 2 });
    await world.rest(1);
    expect(await world.elapse(60 * MINUTE)).toEqual([]);
    expect(await world.statuses()).toEqual({ canceled: 2, open: 1 });
  });

  it('is pushed forward by scheduling again, and taken off by an abort', async () => {
    await world.deadMan.arm(6 * MINUTE);
    await world.rest(1);
    await world.deadMan.arm(20 * MINUTE);
    expect(await world.elapse(10 * MINUTE)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 1 });
    await world.deadMan.disarm();
    expect(await world.state()).toMatchObject({ armed: false, cancelsAtMs: null });
    expect(await world.elapse(24 * 60 * MINUTE)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 1 });
  });

  it('answers a timeout outside 5 minutes to 15 days as {armed: false, reason}', async () => {
    expect(await world.deadMan.arm(15_000)).toEqual({
      armed: false,
      reason: expect.stringContaining('between 5 minutes and 15 days'),
    });
    expect(await world.state()).toMatchObject({ armed: false });
  });
});

// The transaction at the venue, as the stand-in signer lays it out (ccxt's
// `SignCancelAllOrders(timeInForce, time, marketIndex, skipNonce, nonce, …)`).
describe('Lighter dialect: L2CancelAllOrders', () => {
  let sim: RunningVenueSim;
  let control: SimControl;
  const kit = new LighterKit(
    () => sim.url,
    () => control,
  );
  let nonce = Date.now();
  const nextNonce = () => (nonce += 1);
  const cancelAll = (owner: Owner, timeInForce: number, time: number, market = 255) =>
    kit.sendTx(
      kit.signer()['SignCancelAllOrders']!(
        ...[timeInForce, time, market, 1, nextNonce(), owner.apiKeyIndex, owner.index],
      ) as unknown as Signed,
    );

  beforeAll(async () => {
    sim = await startVenueSim({ seed: 14, tickMs: 0 });
    control = new SimControl(sim.url);
  });

  afterAll(async () => {
    await sim.stop();
  });

  it('refuses a scheduled time under 5 minutes or over 15 days ahead (lighter-go constants.go)', async () => {
    const owner = await kit.owner('cancel-all-bounds');
    const refused = {
      status: 400,
      body: { code: 21501, message: expect.stringContaining('range') },
    };
    expect(await cancelAll(owner, 1, Date.now() + 4 * MINUTE)).toEqual(refused);
    expect(await cancelAll(owner, 1, Date.now() + 15 * 24 * 60 * MINUTE + MINUTE)).toEqual(refused);
    expect(await cancelAll(owner, 1, Date.now() + 6 * MINUTE)).toMatchObject({ status: 200 });
  });

  it('refuses a time on an immediate cancel-all or an abort, and a scheduled one of one market', async () => {
    const owner = await kit.owner('cancel-all-shape');
    const nil = {
      status: 400,
      body: { code: 21501, message: 'invalid tx info: CancelAllTime should be nil' },
    };
    expect(await cancelAll(owner, 0, Date.now() + 6 * MINUTE)).toEqual(nil);
    expect(await cancelAll(owner, 2, Date.now() + 6 * MINUTE)).toEqual(nil);
    expect(await cancelAll(owner, 1, Date.now() + 6 * MINUTE, 1)).toMatchObject({
      status: 400,
      body: { message: 'invalid tx info: CancelAllMarketIndex can not be scheduled' },
    });
    expect(await cancelAll(owner, 3, 0)).toMatchObject({
      body: { message: 'invalid tx info: CancelAllTimeInForce is invalid' },
    });
  });

  it('cancels every open order at once when immediate', async () => {
    const owner = await kit.owner('cancel-all-now');
    const bid = (await kit.best('bids')) - 500;
    for (const client of [1, 2]) {
      const placed = await kit.sendTx(kit.order(owner, { nonce: nextNonce(), client, price: bid }));
      expect(placed.status).toBe(200);
    }
    expect(await cancelAll(owner, 0, 0)).toMatchObject({ status: 200 });
    const { orders } = await control.accountOrders('lighter', owner.wallet);
    expect(orders.map((order) => order.status)).toEqual(['canceled', 'canceled']);
  });
});
