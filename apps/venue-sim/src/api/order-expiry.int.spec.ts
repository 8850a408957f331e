import {
  EXPIRY_SETTLE_MARGIN_MS,
  PaperVenueClient,
  UnknownOrderError,
  VenueNetworkError,
  type PaperCredentials,
} from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import { RawVenueSocket, signedHttp } from '../testing/raw-venue';
import { SimControl } from '../testing/sim-control';
import { sleep } from '@sts/platform';

const venue = 'lighter';
const symbol = 'ETH';
describe('order expiry (expires_at_ms)', () => {
  let sim: RunningVenueSim;
  let control: SimControl;
  let baseUrl: string;
  let wsUrl: string;
  let farPrice: string;
  let accounts = 0;
  const closers: Array<() => unknown> = [];

  const account = async (): Promise<PaperCredentials> => {
    accounts += 1;
    const credentials = {
      apiKey: `exp-${accounts}`,
      apiSecret: `secret-${accounts}`,
      wallet: `0xe0${accounts}`,
    };
    await control.registerAccount(venue, { ...credentials, collateral: '1000000' });
    return credentials;
  };
  const placement = (clientOrderId: string, expiresAtMs?: number) => ({
    symbol,
    side: 'buy' as const,
    type: 'post_only' as const,
    price: farPrice,
    size: '0.1',
    client_order_id: clientOrderId,
    ...(expiresAtMs !== undefined ? { expires_at_ms: expiresAtMs } : {}),
  });
  const recorded = async (wallet: string, clientOrderId: string) =>
    (await control.accountOrders(venue, wallet)).orders.filter(
      (order) => order.client_order_id === clientOrderId,
    );

  beforeAll(async () => {
    sim = await startVenueSim({ seed: 41, tickMs: 0, rateLimits: { [venue]: 1_000 } });
    control = new SimControl(sim.url);
    baseUrl = `${sim.url}/venues/${venue}`;
    wsUrl = `${sim.url.replace('http', 'ws')}/venues/${venue}/ws`;
    const book = (await (await fetch(`${baseUrl}/book/${symbol}?depth=1`)).json()) as {
      bids: Array<[string, string]>;
    };
    farPrice = String(Math.round(Number(book.bids[0][0]) * 0.9));
  });
  afterEach(async () => {
    await control.thaw(venue);
    await control.setLatency(venue, 0);
  });
  afterAll(async () => {
    for (const close of closers) {
      await close();
    }
    await sim.stop();
  });

  describe('on the wire', () => {
    it('refuses an order request that reaches the engine after its expiry, records nothing, and the id may be reused', async () => {
      const trader = await account();
      const late = await signedHttp(
        baseUrl,
        trader,
        'POST',
        '/orders',
        placement('ex-1', Date.now() - 1),
      );
      expect(late).toMatchObject({ kind: 'answer', status: 400, body: { code: 'order_expired' } });
      expect(await recorded(trader.wallet, 'ex-1')).toEqual([]);
      const again = await signedHttp(
        baseUrl,
        trader,
        'POST',
        '/orders',
        placement('ex-1', Date.now() + 5_000),
      );
      expect(again).toMatchObject({ kind: 'answer', status: 201 });
      // Without an expiry an order request is never refused for time (older callers).
      expect(await signedHttp(baseUrl, trader, 'POST', '/orders', placement('ex-2'))).toMatchObject(
        { kind: 'answer', status: 201 },
      );
    });

    it('counts the time a request was held: latency, a freeze, delay-next, a lose-next hold', async () => {
      const trader = await account();
      const socket = await RawVenueSocket.account(wsUrl, trader);
      closers.push(() => socket.close());
      const expiresSoon = () => Date.now() + 150;

      await control.setLatency(venue, 250);
      socket.send({ op: 'place', id: 'lat', params: placement('held-1', expiresSoon()) });
      expect(await socket.answer('lat')).toMatchObject({
        status: 400,
        body: { code: 'order_expired' },
      });
      await control.setLatency(venue, 0);

      await control.freeze(venue, 'hang');
      socket.send({ op: 'place', id: 'frz', params: placement('held-2', expiresSoon()) });
      await sleep(250);
      await control.thaw(venue);
      expect(await socket.answer('frz')).toMatchObject({ status: 400 });

      await control.delayNext(venue, 1, 250);
      socket.send({ op: 'place', id: 'dly', params: placement('held-3', expiresSoon()) });
      expect(await socket.answer('dly')).toMatchObject({ status: 400 });

      await control.loseNext(venue, { at: 'before', then: 'hang', hangMs: 250 });
      socket.send({ op: 'place', id: 'hng', params: placement('held-4', expiresSoon()) });
      expect(await socket.answer('hng')).toMatchObject({ status: 400 });

      const orders = (await control.accountOrders(venue, trader.wallet)).orders;
      expect(orders).toEqual([]);
    });

    it('refuses a late cancel or replace too: the target stays open', async () => {
      const trader = await account();
      expect(await signedHttp(baseUrl, trader, 'POST', '/orders', placement('tg-1'))).toMatchObject(
        { status: 201 },
      );
      const cancel = await signedHttp(
        baseUrl,
        trader,
        'DELETE',
        `/orders?client_order_id=tg-1&expires_at_ms=${Date.now() - 1}`,
      );
      expect(cancel).toMatchObject({ status: 400, body: { code: 'order_expired' } });
      const replace = await signedHttp(baseUrl, trader, 'POST', '/orders/replace', {
        client_order_id: 'tg-1',
        next: placement('tg-2'),
        expires_at_ms: Date.now() - 1,
      });
      expect(replace).toMatchObject({ status: 400, body: { code: 'order_expired' } });
      expect(
        (await control.accountOrders(venue, trader.wallet)).orders.map((order) => [
          order.client_order_id,
          order.status,
        ]),
      ).toEqual([['tg-1', 'open']]);
      const malformed = await signedHttp(baseUrl, trader, 'POST', '/orders', placement('tg-3', -5));
      expect(malformed).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    });
  });

  describe('the paper client', () => {
    const client = async (orderEntry: 'socket' | 'http') => {
      const credentials = await account();
      const created = new PaperVenueClient({
        venue,
        baseUrl,
        credentials,
        orderEntry,
        requestTimeoutMs: 800,
        reconnect: { initialMs: 20, maxMs: 100 },
      });
      await created.connect();
      closers.push(() => created.close());
      return { client: created, wallet: credentials.wallet };
    };
    const request = (clientOrderId: string) => ({
      symbol,
      side: 'buy' as const,
      price: farPrice,
      size: '0.1',
      clientOrderId,
    });
    const lostAnswer = async (work: Promise<unknown>): Promise<VenueNetworkError> => {
      const error = await work.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(VenueNetworkError);
      return error as VenueNetworkError;
    };

    it.each(['socket', 'http'] as const)(
      'over %s: a placement held past its expiry fails with settlesByMs, and the venue never executes it',
      async (orderEntry) => {
        const { client: trader, wallet } = await client(orderEntry);
        await control.loseNext(venue, { wallet, at: 'before', then: 'hang', hangMs: 1_600 });
        const sentAt = Date.now();
        const error = await lostAnswer(trader.placePostOnly(request(`pc-${orderEntry}-1`)));
        expect(error.settlesByMs).toBeGreaterThanOrEqual(sentAt + 800 + EXPIRY_SETTLE_MARGIN_MS);
        expect(error.settlesByMs).toBeLessThanOrEqual(Date.now() + EXPIRY_SETTLE_MARGIN_MS + 50);

        await sleep(error.settlesByMs! - Date.now());
        await expect(trader.order({ clientOrderId: `pc-${orderEntry}-1` })).rejects.toBeInstanceOf(
          UnknownOrderError,
        );
        // The held request reaches the engine later, and is refused there.
        await sleep(1_600 - (Date.now() - sentAt) + 100);
        expect(await recorded(wallet, `pc-${orderEntry}-1`)).toEqual([]);
        // Its client order id was never used: it places as a new order.
        expect((await trader.placePostOnly(request(`pc-${orderEntry}-1`))).duplicate).toBe(false);
      },
    );

    it.each(['socket', 'http'] as const)(
      'over %s: a placement executed but unanswered fails with settlesByMs and is known by its client order id',
      async (orderEntry) => {
        const { client: trader, wallet } = await client(orderEntry);
        await control.loseNext(venue, { wallet, at: 'after', then: 'drop' });
        const sentAt = Date.now();
        const error = await lostAnswer(trader.placePostOnly(request(`pc-${orderEntry}-2`)));
        expect(error.settlesByMs).toBeGreaterThanOrEqual(sentAt + 800 + EXPIRY_SETTLE_MARGIN_MS);
        const order = await trader.order({ clientOrderId: `pc-${orderEntry}-2` });
        expect(order.status).toBe('open');
      },
    );

    it.each(['socket', 'http'] as const)(
      "over %s: a placement's own lifetimeMs is its expiry and its answer wait",
      async (orderEntry) => {
        const { client: trader, wallet } = await client(orderEntry);
        await control.loseNext(venue, { wallet, at: 'before', then: 'hang', hangMs: 1_200 });
        const sentAt = Date.now();
        const error = await lostAnswer(
          trader.placePostOnly({ ...request(`pc-${orderEntry}-life`), lifetimeMs: 200 }),
        );
        // Given up after the lifetime, not the client's 800 ms.
        expect(Date.now() - sentAt).toBeLessThan(800);
        expect(error.settlesByMs).toBeGreaterThanOrEqual(sentAt + 200 + EXPIRY_SETTLE_MARGIN_MS);
        expect(error.settlesByMs).toBeLessThan(sentAt + 800 + EXPIRY_SETTLE_MARGIN_MS);
        await sleep(1_200 - (Date.now() - sentAt) + 100);
        expect(await recorded(wallet, `pc-${orderEntry}-life`)).toEqual([]);
      },
    );

    it('a cancel and a replace held past their expiry fail with settlesByMs and change nothing', async () => {
      const { client: trader, wallet } = await client('socket');
      await trader.placePostOnly(request('pc-target'));
      await control.loseNext(venue, {
        wallet,
        at: 'before',
        then: 'hang',
        hangMs: 1_200,
        count: 2,
      });
      const cancel = await lostAnswer(trader.cancel({ clientOrderId: 'pc-target' }));
      const replace = await lostAnswer(
        trader.replace({
          target: { clientOrderId: 'pc-target' },
          next: request('pc-next'),
        }),
      );
      expect(cancel.settlesByMs).toEqual(expect.any(Number));
      expect(replace.settlesByMs).toEqual(expect.any(Number));
      // Both holds are over: the replace's ends 1.2 s after it was sent, 0.8 s after the cancel.
      await sleep(1_000);
      expect(
        (await control.accountOrders(venue, wallet)).orders.map((order) => [
          order.client_order_id,
          order.status,
        ]),
      ).toEqual([['pc-target', 'open']]);
    });

    it('a placement answered late but before its expiry executes: a timeout alone proves nothing', async () => {
      const { client: trader, wallet } = await client('socket');
      await control.loseNext(venue, { wallet, at: 'after', then: 'hang', hangMs: 1_200 });
      const error = await lostAnswer(trader.placePostOnly(request('pc-late')));
      expect(error.settlesByMs).toEqual(expect.any(Number));
      expect(await recorded(wallet, 'pc-late')).toMatchObject([{ status: 'open' }]);
    });
  });
});
