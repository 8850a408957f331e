import Big from 'big.js';
import { UNBOUNDED_REQUEST_SETTLE_MS } from '@sts/domain';
import { sleep } from '@sts/platform';
import {
  CcxtVenueClient,
  EventLog,
  UnknownOrderError,
  VenueNetworkError,
  clientOrderIds,
  createCcxtExchange,
  minimumSize,
} from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import {
  harnessWallet,
  liveAccountCredentials,
  liveTestOptions,
  openLiveAccount,
} from '../testing/live-harness';
import { SimControl } from '../testing/sim-control';

/**
 * Every live order request a venue lets expire expires: a request held on
 * its way past its lifetime is refused by the venue and changes nothing, and
 * the client's lost answer settles by that lifetime, not the fallback minute.
 * The suite's clients answer-time out after 1 s (live-harness.ts).
 */
const VENUES = [
  // expiresAfter: the request's own lifetime (the 1 s timeout, a hedge's lifetimeMs).
  { venue: 'hyperliquid', symbol: 'SOL', seed: 41, lifetimeMs: 1_000, cancels: true },
  // the documented 10 s nonce window (recvWindow sent, not relied on).
  { venue: 'aster', symbol: 'ETHUSDT', seed: 42, lifetimeMs: 10_000, cancels: true },
  // recv_window: the 1 s timeout plus the second ccxt's whole-second timestamp may lag;
  // a cancel signs no time, so it does not expire.
  { venue: 'paradex', symbol: 'ETH-USD-PERP', seed: 43, lifetimeMs: 2_000, cancels: false },
] as const;
const SETTLE_MARGIN_MS = 250;

for (const { venue, symbol, seed, lifetimeMs, cancels } of VENUES) {
  describe(`live ${venue}: order requests expire on the venue`, () => {
    const label = `${venue}:${seed}:expiry`;
    const nextId = clientOrderIds('ex');
    let sim: RunningVenueSim;
    let client: CcxtVenueClient;
    let control: SimControl;
    let log: EventLog;
    let size: string;

    beforeAll(async () => {
      sim = await startVenueSim({ seed, tickMs: 0 });
      control = new SimControl(sim.url);
      const credentials = await liveAccountCredentials(venue, sim.url, label);
      const exchange = await createCcxtExchange(venue, credentials, {
        endpoint: `${sim.url}/dialects/${venue}`,
        ...liveTestOptions(venue),
      });
      await openLiveAccount(venue, exchange, control, harnessWallet(label).address);
      (exchange as { timeout?: number }).timeout = 1_000;
      client = new CcxtVenueClient({ venue, exchange });
      await client.connect();
      log = new EventLog(client);
      await client.subscribeBook(symbol);
      const [market] = (await client.markets()).filter((m) => m.entry.symbol === symbol);
      size = minimumSize(market!, (await book()).bestAsk!);
    }, 60_000);

    afterAll(async () => {
      log?.stop();
      await client?.close();
      await sim?.stop();
    });

    const book = () =>
      log.waitFor('book', (update) => update.symbol === symbol && !!update.bestBid);
    const farBid = async () => new Big((await book()).bestBid!).times(0.9).toFixed(2);
    /** The simulator's own record of the account's orders. */
    const recorded = async (filter: { status?: 'open' } = {}) =>
      (await control.accountOrders(venue, harnessWallet(label).address, filter)).orders;

    /** A resting order, then a cancel of it held `hangMs` on its way to the venue. */
    const cancelHeldFor = async (hangMs: number) => {
      const placed = await client.placePostOnly({
        symbol,
        side: 'buy',
        price: await farBid(),
        size,
        clientOrderId: nextId(),
      });
      await control.loseNext(venue, { op: 'cancel', at: 'before', then: 'hang', hangMs });
      const sentAt = Date.now();
      const error = await client.cancel({ clientOrderId: placed.order.clientOrderId, symbol }).then(
        () => undefined,
        (e: unknown) => e,
      );
      return { sentAt, error, placed };
    };

    it('reports its requests’ lifetime on the venue plus the settle margin', () => {
      expect(client.orderRequestLifetimeMs).toBe(lifetimeMs + SETTLE_MARGIN_MS);
    });

    it('a placement held past its lifetime is refused, changes nothing, and its lost answer settles by its lifetime', async () => {
      const request = {
        symbol,
        side: 'buy' as const,
        price: await farBid(),
        size,
        clientOrderId: nextId(),
      };
      await control.loseNext(venue, {
        op: 'place',
        at: 'before',
        then: 'hang',
        hangMs: lifetimeMs + 500,
      });
      const sentAt = Date.now();
      const error = await client.placePostOnly(request).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(VenueNetworkError);
      const { settlesByMs } = error as VenueNetworkError;
      expect(settlesByMs).toBeLessThanOrEqual(sentAt + lifetimeMs + SETTLE_MARGIN_MS + 200);
      expect(settlesByMs).toBeLessThan(sentAt + UNBOUNDED_REQUEST_SETTLE_MS);
      await sleep(settlesByMs! + 1_000 - Date.now());
      await control.step(1);
      expect(await recorded()).toEqual([]);
      await expect(
        client.order({ clientOrderId: request.clientOrderId, symbol }),
      ).rejects.toBeInstanceOf(UnknownOrderError);
    }, 30_000);

    it('a batch held past its lifetime is refused whole, changes nothing, and each lost answer settles by its lifetime', async () => {
      const price = await farBid();
      const requests = [nextId(), nextId()].map((clientOrderId) => ({
        symbol,
        side: 'buy' as const,
        price,
        size,
        clientOrderId,
      }));
      await control.loseNext(venue, {
        op: 'place',
        at: 'before',
        then: 'hang',
        hangMs: lifetimeMs + 500,
      });
      const sentAt = Date.now();
      const answers = await client.batch!.placePostOnly(requests);
      const errors = answers.map((answer) => (answer.ok ? answer.value : answer.error));
      for (const error of errors) {
        expect(error).toBeInstanceOf(VenueNetworkError);
        const { settlesByMs } = error as VenueNetworkError;
        expect(settlesByMs).toBeLessThanOrEqual(sentAt + lifetimeMs + SETTLE_MARGIN_MS + 200);
      }
      const settlesByMs = Math.max(...errors.map((e) => (e as VenueNetworkError).settlesByMs!));
      await sleep(settlesByMs + 1_000 - Date.now());
      await control.step(1);
      expect(await recorded()).toEqual([]);
      for (const { clientOrderId } of requests) {
        await expect(client.order({ clientOrderId, symbol })).rejects.toBeInstanceOf(
          UnknownOrderError,
        );
      }
    }, 30_000);

    (cancels ? it.skip : it)(
      'a lost cancel keeps the fallback bound (no expiry to set)',
      async () => {
        const { sentAt, error } = await cancelHeldFor(1_500);
        expect(error).toBeInstanceOf(VenueNetworkError);
        expect((error as VenueNetworkError).settlesByMs).toBeGreaterThanOrEqual(
          sentAt + UNBOUNDED_REQUEST_SETTLE_MS,
        );
      },
      30_000,
    );

    (cancels ? it : it.skip)(
      'a cancel held past its lifetime is refused: the order rests',
      async () => {
        const { sentAt, error, placed } = await cancelHeldFor(lifetimeMs + 500);
        expect(error).toBeInstanceOf(VenueNetworkError);
        const { settlesByMs } = error as VenueNetworkError;
        expect(settlesByMs).toBeLessThanOrEqual(sentAt + lifetimeMs + SETTLE_MARGIN_MS + 200);
        await sleep(settlesByMs! + 1_000 - Date.now());
        const open = await recorded({ status: 'open' });
        // The one order of the account, still resting (the engine names it its own way).
        expect(open.map((order) => order.status)).toEqual(['open']);
        await client.cancel({ clientOrderId: placed.order.clientOrderId, symbol });
      },
      30_000,
    );
  });
}
