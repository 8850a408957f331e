import Big from 'big.js';
import { EventLog, OrderRejectedError, PaperVenueClient, VenueNetworkError } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import { SimControl } from '../testing/sim-control';

describe('venue simulator control endpoint', () => {
  let sim: RunningVenueSim;
  let control: SimControl;
  let trader: PaperVenueClient;
  let log: EventLog;
  let ids = 0;
  const nextId = () => `ctl-${(ids += 1)}`;

  const farBid = async (): Promise<string> => {
    const book = await log.waitFor('book', (update) => update.symbol === 'SOLUSDT');
    return new Big(book.bestBid!).minus('1').toFixed();
  };
  const timed = async <T>(work: () => Promise<T>): Promise<number> => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };

  beforeAll(async () => {
    sim = await startVenueSim({ seed: 21, tickMs: 0, rateLimits: { aster: 1_000 } });
    control = new SimControl(sim.url);
    trader = new PaperVenueClient({
      venue: 'aster',
      baseUrl: `${sim.url}/venues/aster`,
      credentials: { apiKey: 'ctl', apiSecret: 'ctl-secret', wallet: '0xctl' },
      requestTimeoutMs: 1_000,
      reconnect: { initialMs: 20, maxMs: 200 },
    });
    log = new EventLog(trader);
    await trader.connect();
    await trader.subscribeBook('SOLUSDT');
  });
  afterAll(async () => {
    await trader.close();
    await sim.stop();
  });

  it('adds latency to every request of a venue', async () => {
    await control.setLatency('aster', 120);
    expect(await timed(() => trader.openOrders())).toBeGreaterThanOrEqual(115);
    await control.setLatency('aster', 0);
    expect(await timed(() => trader.openOrders())).toBeLessThan(100);
  });

  it('rejects the next N orders, then accepts again', async () => {
    await control.rejectNext('aster', 2, 'exchange_busy');
    const price = await farBid();
    for (let i = 0; i < 2; i += 1) {
      await expect(
        trader.placePostOnly({
          symbol: 'SOLUSDT',
          side: 'buy',
          price,
          size: '0.1',
          clientOrderId: nextId(),
        }),
      ).rejects.toMatchObject({
        constructor: OrderRejectedError,
        reason: 'exchange_busy',
      });
    }
    const ok = await trader.placePostOnly({
      symbol: 'SOLUSDT',
      side: 'buy',
      price,
      size: '0.1',
      clientOrderId: nextId(),
    });
    expect(ok.order.status).toBe('open');
    await trader.cancel({ orderId: ok.order.orderId });
  });

  it('delays the next N orders', async () => {
    await control.delayNext('aster', 1, 250);
    const price = await farBid();
    const slow = await timed(() =>
      trader.placePostOnly({
        symbol: 'SOLUSDT',
        side: 'buy',
        price,
        size: '0.1',
        clientOrderId: nextId(),
      }),
    );
    const fast = await timed(() =>
      trader.placePostOnly({
        symbol: 'SOLUSDT',
        side: 'buy',
        price,
        size: '0.1',
        clientOrderId: nextId(),
      }),
    );
    expect(slow).toBeGreaterThanOrEqual(245);
    expect(fast).toBeLessThan(200);
    for (const order of await trader.openOrders()) {
      await trader.cancel({ orderId: order.orderId });
    }
  });

  // What a request held before the engine does is judged as at the time a release names, so a
  // spec proves an expired request's refusal without waiting for its expiry.
  it('ends the holds before the engine at once, each request judged as at the time named', async () => {
    const price = await farBid();
    const order = (clientOrderId: string) => ({
      symbol: 'SOLUSDT',
      side: 'buy' as const,
      price,
      size: '0.1',
      clientOrderId,
    });
    const held = async () => {
      for (;;) {
        const state = (await control.state()) as { venues: { id: string; lose_next: unknown[] }[] };
        if (state.venues.find((venue) => venue.id === 'aster')!.lose_next.length === 0) {
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };

    // Released within its life (1 s), as at 5 s later: past its expiry, refused.
    await control.loseNext('aster', { op: 'place', at: 'before', then: 'hang', hangMs: 60_000 });
    const pastExpiry = trader.placePostOnly(order('held-past-expiry'));
    await held();
    expect(await control.releaseHeld('aster', Date.now() + 5_000)).toEqual({ released: 1 });
    await expect(pastExpiry).rejects.toThrow(/after its expiry/);
    const { orders } = await control.accountOrders('aster', '0xctl');
    expect(orders.map((o) => o.client_order_id)).not.toContain('held-past-expiry');

    await control.loseNext('aster', { op: 'place', at: 'before', then: 'hang', hangMs: 60_000 });
    const inTime = trader.placePostOnly(order('held-in-time'));
    await held();
    expect(await control.releaseHeld('aster', Date.now())).toEqual({ released: 1 });
    expect((await inTime).order).toMatchObject({ clientOrderId: 'held-in-time', status: 'open' });
    await trader.cancel({ clientOrderId: 'held-in-time' });
  });

  it('freezes a venue: requests hang until it thaws, or fail fast when halted; the book stands still', async () => {
    const seqBefore = sim.world().venue('aster').market('SOLUSDT').book.seq;
    await control.freeze('aster', 'hang');
    await control.step(20);
    expect(sim.world().venue('aster').market('SOLUSDT').book.seq).toBe(seqBefore);
    await expect(trader.openOrders()).rejects.toBeInstanceOf(VenueNetworkError);
    const started = performance.now();
    const pending = trader.openOrders();
    setTimeout(() => void control.thaw('aster'), 300);
    await expect(pending).resolves.toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    await control.freeze('aster', 'halt');
    await expect(trader.openOrders()).rejects.toMatchObject({
      constructor: OrderRejectedError,
      reason: 'venue_halted',
    });
    await control.thaw('aster');
    await control.step(5);
    expect(sim.world().venue('aster').market('SOLUSDT').book.seq).toBeGreaterThan(seqBefore);
  });

  it('jumps an asset on every venue, or one venue alone', async () => {
    const mid = (venue: string, symbol: string) => sim.world().venue(venue).market(symbol).mid;
    const before = { aster: mid('aster', 'ETHUSDT'), lighter: mid('lighter', 'ETH') };
    await control.jumpAsset('ETH', 100);
    expect(mid('aster', 'ETHUSDT') / before.aster).toBeCloseTo(1.01, 6);
    expect(mid('lighter', 'ETH') / before.lighter).toBeCloseTo(1.01, 6);
    await control.jumpVenue('aster', -50, 'ETHUSDT');
    expect(mid('aster', 'ETHUSDT') / before.aster).toBeCloseTo(1.01 * (1 - 0.005), 4);
    expect(mid('lighter', 'ETH') / before.lighter).toBeCloseTo(1.01, 6);
  });

  it("reads an account's fills as the venue recorded them", async () => {
    const book = await log.waitFor('book', (update) => update.symbol === 'SOLUSDT');
    const ack = await trader.placeIoc({
      symbol: 'SOLUSDT',
      side: 'sell',
      price: book.bestBid!,
      size: '0.1',
      clientOrderId: nextId(),
    });
    expect(ack.order.filledSize).toBe('0.1');
    const { fills } = await control.accountFills('aster', '0xCTL', ack.order.createdAtMs);
    expect(fills.map((fill) => fill['client_order_id'])).toEqual([ack.order.clientOrderId]);
  });

  it('resets to a seed: state cleared, sockets dropped, clients back on their own', async () => {
    const price = await farBid();
    await trader.placePostOnly({
      symbol: 'SOLUSDT',
      side: 'buy',
      price,
      size: '0.1',
      clientOrderId: nextId(),
    });
    await control.reset(99);
    await log.waitFor('connection', (event) => event.state === 'reconnected');
    expect(await trader.openOrders()).toEqual([]);
    expect(await trader.positions()).toEqual([]);
    expect(await control.state()).toMatchObject({ seed: 99 });
  });
});
