import type { PaperCredentials, WirePlaceOrder } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import { RawVenueSocket, signedHttp } from '../testing/raw-venue';
import { SimControl } from '../testing/sim-control';
import { sleep } from '@sts/platform';

const venue = 'paradex';
const symbol = 'BTC-USD-PERP';
describe('venue simulator: lost answers (lose-next) and held requests', () => {
  let sim: RunningVenueSim;
  let control: SimControl;
  let wsUrl: string;
  let baseUrl: string;
  let accounts = 0;
  let farPrice: number;
  const sockets: RawVenueSocket[] = [];

  /** A fresh funded account: each case has its own wallet, so rules and orders never mix. */
  const account = async (): Promise<PaperCredentials> => {
    accounts += 1;
    const credentials = {
      apiKey: `lose-${accounts}`,
      apiSecret: `secret-${accounts}`,
      wallet: `0x10${accounts}`,
    };
    await control.registerAccount(venue, { ...credentials, collateral: '1000000' });
    return credentials;
  };
  const accountSocket = async (credentials: PaperCredentials): Promise<RawVenueSocket> => {
    const raw = await RawVenueSocket.account(wsUrl, credentials);
    sockets.push(raw);
    return raw;
  };
  const placement = (clientOrderId: string, extra: Partial<WirePlaceOrder> = {}) => ({
    symbol,
    side: 'buy' as const,
    type: 'post_only' as const,
    price: farPrice.toFixed(1),
    size: '0.01',
    client_order_id: clientOrderId,
    ...extra,
  });
  const recorded = async (credentials: PaperCredentials, clientOrderId: string) =>
    (await control.accountOrders(venue, credentials.wallet)).orders.filter(
      (order) => order.client_order_id === clientOrderId,
    );

  beforeAll(async () => {
    sim = await startVenueSim({ seed: 31, tickMs: 0, rateLimits: { [venue]: 1_000 } });
    control = new SimControl(sim.url);
    wsUrl = `${sim.url.replace('http', 'ws')}/venues/${venue}/ws`;
    baseUrl = `${sim.url}/venues/${venue}`;
    const book = (await (await fetch(`${baseUrl}/book/${symbol}?depth=1`)).json()) as {
      bids: Array<[string, string]>;
    };
    farPrice = Math.round(Number(book.bids[0][0]) - 500);
  });
  afterAll(async () => {
    for (const raw of sockets) {
      raw.close();
    }
    await sim.stop();
  });

  describe('on the account socket', () => {
    it('before + drop: the order never reaches the engine, the socket is cut unanswered and the wallet cannot reconnect for block_ms', async () => {
      const trader = await account();
      const other = await account();
      const cutting = await accountSocket(trader);
      const watcher = await accountSocket(trader);
      await control.loseNext(venue, {
        wallet: trader.wallet,
        at: 'before',
        then: 'drop',
        blockMs: 1_500,
      });

      cutting.send({ op: 'place', id: 'b1', params: placement('bd-1') });
      await cutting.closed();
      expect(cutting.answerTo('b1')).toBeUndefined();
      expect(await recorded(trader, 'bd-1')).toEqual([]);
      // Only the connection the request came on is cut; it caused nothing to report.
      expect(watcher.closedAtMs).toBeUndefined();
      expect(watcher.orderEvents('bd-1')).toEqual([]);
      await expect(RawVenueSocket.open(wsUrl, trader)).rejects.toThrow(/503/);
      // Only that wallet is refused, and only for block_ms.
      sockets.push(await RawVenueSocket.open(wsUrl, other));
      await sleep(cutting.closedAtMs! + 1_600 - Date.now());
      const back = await accountSocket(trader);
      back.send({ op: 'place', id: 'b2', params: placement('bd-1') });
      expect(await back.answer('b2')).toMatchObject({ status: 201 });
    });

    it('after + drop: the order executes and its events reach the other sockets, the cut socket gets neither', async () => {
      const trader = await account();
      const cutting = await accountSocket(trader);
      const watcher = await accountSocket(trader);
      await control.loseNext(venue, { wallet: trader.wallet, at: 'after', then: 'drop' });

      cutting.send({ op: 'place', id: 'a1', params: placement('ad-1') });
      await cutting.closed();
      await watcher.until(() => watcher.orderEvents('ad-1').length > 0);
      expect(watcher.orderEvents('ad-1')[0].order.status).toBe('open');
      expect(cutting.answerTo('a1')).toBeUndefined();
      expect(cutting.orderEvents('ad-1')).toEqual([]);
      expect(await recorded(trader, 'ad-1')).toMatchObject([
        { client_order_id: 'ad-1', status: 'open', side: 'buy', type: 'post_only', size: '0.01' },
      ]);
    });

    it('before + hang: held hang_ms before the engine, then executed and answered', async () => {
      const trader = await account();
      const raw = await accountSocket(trader);
      await control.loseNext(venue, {
        wallet: trader.wallet,
        at: 'before',
        then: 'hang',
        hangMs: 1_000,
      });
      const sentAt = Date.now();
      raw.send({ op: 'place', id: 'h1', params: placement('bh-1') });
      await sleep(150);
      expect(await recorded(trader, 'bh-1')).toEqual([]);
      expect(await raw.answer('h1')).toMatchObject({ status: 201 });
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(990);
      expect(await recorded(trader, 'bh-1')).toHaveLength(1);
    });

    it('after + hang: executed at once, the answer held hang_ms', async () => {
      const trader = await account();
      const raw = await accountSocket(trader);
      await control.loseNext(venue, {
        wallet: trader.wallet,
        at: 'after',
        then: 'hang',
        hangMs: 1_000,
      });
      const sentAt = Date.now();
      raw.send({ op: 'place', id: 'h2', params: placement('ah-1') });
      await raw.until(() => raw.orderEvents('ah-1').length > 0);
      expect(await recorded(trader, 'ah-1')).toHaveLength(1);
      expect(raw.answerTo('h2')).toBeUndefined();
      expect(await raw.answer('h2')).toMatchObject({ status: 201 });
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(990);
    });

    it('matches op, order_type and wallet, count times, and leaves the rest alone', async () => {
      const trader = await account();
      const bystander = await account();
      const raw = await accountSocket(trader);
      const other = await accountSocket(bystander);
      await control.loseNext(venue, {
        count: 2,
        op: 'cancel',
        wallet: trader.wallet,
        at: 'after',
        then: 'hang',
        hangMs: 1_000,
      });
      await control.loseNext(venue, {
        op: 'place',
        orderType: 'ioc',
        wallet: trader.wallet,
        at: 'before',
        then: 'drop',
      });
      expect((await control.state())['venues']).toContainEqual(
        expect.objectContaining({
          id: venue,
          lose_next: [
            expect.objectContaining({ count: 2, op: 'cancel' }),
            expect.objectContaining({ count: 1, op: 'place', order_type: 'ioc' }),
          ],
        }),
      );

      // A post-only placement and another wallet's cancel match no rule.
      raw.send({ op: 'place', id: 'm1', params: placement('mt-1') });
      raw.send({ op: 'place', id: 'm2', params: placement('mt-2') });
      raw.send({ op: 'place', id: 'm3', params: placement('mt-3') });
      other.send({ op: 'place', id: 'o1', params: placement('mt-o') });
      for (const id of ['m1', 'm2', 'm3']) {
        expect(await raw.answer(id)).toMatchObject({ status: 201 });
      }
      expect(await other.answer('o1')).toMatchObject({ status: 201 });
      other.send({ op: 'cancel', id: 'o2', params: { client_order_id: 'mt-o' } });
      const otherStarted = Date.now();
      expect(await other.answer('o2')).toMatchObject({ status: 200 });
      // Not held: another wallet's cancel matches no rule.
      expect(Date.now() - otherStarted).toBeLessThan(1_000);

      // Two cancels are held, the third is not.
      const started = Date.now();
      for (const [id, clientOrderId] of [
        ['c1', 'mt-1'],
        ['c2', 'mt-2'],
        ['c3', 'mt-3'],
      ]) {
        raw.send({ op: 'cancel', id, params: { client_order_id: clientOrderId } });
      }
      expect(await raw.answer('c3')).toMatchObject({ status: 200 });
      expect(raw.answerTo('c1')).toBeUndefined();
      expect(raw.answerTo('c2')).toBeUndefined();
      expect(await raw.answer('c1')).toMatchObject({ status: 200 });
      expect(await raw.answer('c2')).toMatchObject({ status: 200 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(990);
      expect(await control.accountOrders(venue, trader.wallet, { status: 'open' })).toEqual({
        orders: [],
      });
    });
  });

  describe('over HTTP', () => {
    it('before + drop: the connection is destroyed unanswered and nothing is recorded', async () => {
      const trader = await account();
      await control.loseNext(venue, { wallet: trader.wallet, at: 'before', then: 'drop' });
      const outcome = await signedHttp(baseUrl, trader, 'POST', '/orders', placement('hbd-1'));
      expect(outcome.kind).toBe('connection_error');
      expect(await recorded(trader, 'hbd-1')).toEqual([]);
    });

    it('after + drop: the order executes, the connection is destroyed unanswered', async () => {
      const trader = await account();
      await control.loseNext(venue, { wallet: trader.wallet, at: 'after', then: 'drop' });
      const outcome = await signedHttp(baseUrl, trader, 'POST', '/orders', placement('had-1'));
      expect(outcome.kind).toBe('connection_error');
      expect(await recorded(trader, 'had-1')).toMatchObject([{ status: 'open' }]);
    });

    it('after + hang: executed at once, answered hang_ms later', async () => {
      const trader = await account();
      await control.loseNext(venue, {
        wallet: trader.wallet,
        op: 'cancel',
        at: 'after',
        then: 'hang',
        hangMs: 1_000,
      });
      await signedHttp(baseUrl, trader, 'POST', '/orders', placement('hah-1'));
      const sentAt = Date.now();
      const pending = signedHttp(baseUrl, trader, 'DELETE', '/orders?client_order_id=hah-1');
      await sleep(150);
      expect(await recorded(trader, 'hah-1')).toMatchObject([{ status: 'canceled' }]);
      const outcome = await pending;
      expect(outcome).toMatchObject({ kind: 'answer', status: 200 });
      expect(outcome.atMs - sentAt).toBeGreaterThanOrEqual(990);
    });

    it('before + hang: nothing happens for hang_ms, then the order executes', async () => {
      const trader = await account();
      await control.loseNext(venue, {
        wallet: trader.wallet,
        at: 'before',
        then: 'hang',
        hangMs: 1_000,
      });
      const pending = signedHttp(baseUrl, trader, 'POST', '/orders', placement('hbh-1'));
      await sleep(150);
      expect(await recorded(trader, 'hbh-1')).toEqual([]);
      expect(await pending).toMatchObject({ kind: 'answer', status: 201 });
      expect(await recorded(trader, 'hbh-1')).toHaveLength(1);
    });
  });

  it('refuses a lose-next body it cannot follow', async () => {
    const rulesNow = async () =>
      ((await control.state())['venues'] as Array<{ id: string; lose_next: unknown[] }>).find(
        (state) => state.id === venue,
      )!.lose_next;
    const before = await rulesNow();
    for (const body of [
      { then: 'drop' },
      { at: 'during', then: 'drop' },
      { at: 'before', then: 'vanish' },
      { at: 'before', then: 'drop', op: 'amend' },
      { at: 'before', then: 'drop', order_type: 'limit' },
      { at: 'before', then: 'hang', hang_ms: -1 },
    ]) {
      const response = await fetch(`${sim.url}/control/venues/${venue}/lose-next`, {
        method: 'POST',
        body: JSON.stringify(body),
      });
      expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([
        400,
        'invalid_request',
      ]);
    }
    expect(await rulesNow()).toEqual(before);
  });

  it('freeze (hang): on thaw, held requests execute in the order they arrived', async () => {
    const trader = await account();
    await control.freeze(venue, 'hang');
    try {
      const placed = signedHttp(baseUrl, trader, 'POST', '/orders', placement('fz-1'));
      await waitForAccepted(control, trader.wallet, 1);
      const lookedUp = signedHttp(baseUrl, trader, 'GET', '/order?client_order_id=fz-1');
      const listed = signedHttp(baseUrl, trader, 'GET', '/orders/open');
      await waitForAccepted(control, trader.wallet, 3);
      await control.thaw(venue);
      expect(await placed).toMatchObject({ kind: 'answer', status: 201 });
      expect(await lookedUp).toMatchObject({
        kind: 'answer',
        status: 200,
        body: { order: { client_order_id: 'fz-1' } },
      });
      expect(await listed).toMatchObject({
        kind: 'answer',
        body: { orders: [expect.objectContaining({ client_order_id: 'fz-1' })] },
      });
    } finally {
      await control.thaw(venue);
    }
  });

  it('lists an account’s orders as the venue recorded them, all or open only', async () => {
    const trader = await account();
    const raw = await accountSocket(trader);
    raw.send({ op: 'place', id: 'l1', params: placement('ls-1') });
    raw.send({ op: 'place', id: 'l2', params: placement('ls-2') });
    await raw.answer('l2');
    raw.send({ op: 'cancel', id: 'l3', params: { client_order_id: 'ls-1' } });
    await raw.answer('l3');
    const all = await control.accountOrders(venue, trader.wallet.toUpperCase());
    expect(all.orders.map((order) => [order.client_order_id, order.status])).toEqual([
      ['ls-1', 'canceled'],
      ['ls-2', 'open'],
    ]);
    expect(all.orders[1]).toMatchObject({
      side: 'buy',
      price: farPrice.toFixed(0),
      size: '0.01',
      filled_size: '0',
      type: 'post_only',
    });
    const open = await control.accountOrders(venue, trader.wallet, { status: 'open' });
    expect(open.orders.map((order) => order.client_order_id)).toEqual(['ls-2']);
  });
});

/** Waits until the venue has taken `count` requests of the wallet (held ones included). */
async function waitForAccepted(control: SimControl, wallet: string, count: number): Promise<void> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const { seconds } = await control.requestCounts(venue, wallet);
    if (seconds.reduce((sum, second) => sum + second.accepted, 0) >= count) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`the venue did not take ${count} requests`);
    }
    await sleep(5);
  }
}
