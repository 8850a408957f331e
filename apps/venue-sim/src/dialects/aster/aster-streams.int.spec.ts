import Big from 'big.js';
import WebSocket from 'ws';
import {
  ETH,
  asterTrader,
  startAsterWorld,
  thrown,
  walletOf,
  type AsterCcxt,
  type AsterWorld,
} from './aster-test-kit';
import { sleep } from '@sts/platform';

type Message = Record<string, unknown>;

/** A raw socket that keeps every message it got, for waiting on the next that matches. */
class RawSocket {
  readonly messages: Message[] = [];
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as Message);
      for (const wake of this.waiters.splice(0)) {
        wake();
      }
    });
  }

  static open(url: string): Promise<RawSocket> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new RawSocket(socket)));
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  async next(match: (message: Message) => boolean, timeoutMs = 3000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) {
        return found;
      }
      if (Date.now() > deadline) {
        throw new Error('no matching message');
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  close(): void {
    this.socket.close();
  }
}

describe('aster dialect: WebSocket streams', () => {
  let world: AsterWorld;
  let exchange: AsterCcxt;
  let wsBase: string;

  beforeAll(async () => {
    world = await startAsterWorld();
    ({ exchange } = await asterTrader(world, 'streams'));
    await exchange.loadMarkets();
    wsBase = world.endpoint.replace(/^http/, 'ws');
  });

  afterAll(async () => {
    await exchange.close();
    await world.sim.stop();
  });

  it('serves watchOrderBook: the top 20 levels, again after the book moves', async () => {
    const first = await exchange.watchOrderBook(ETH);
    const rest = await exchange.fetchOrderBook(ETH, 20);
    expect(first.bids.slice(0, 20)).toEqual(rest.bids);
    expect(first.asks.slice(0, 20)).toEqual(rest.asks);
    const [askPrice] = rest.asks[0];
    const next = exchange.watchOrderBook(ETH);
    await world.control.trade('aster', 'ETHUSDT', 'buy', '500', String(askPrice));
    const moved = await next;
    expect(moved.asks[0][0]).toBeGreaterThan(askPrice);
  });

  it('streams diff depth whose U/u/pu continue from the REST snapshot (lastUpdateId)', async () => {
    const socket = await RawSocket.open(`${wsBase}/stream?streams=ethusdt@depth`);
    try {
      await world.control.step(2);
      const response = await fetch(`${world.endpoint}/fapi/v3/depth?symbol=ETHUSDT&limit=1000`);
      const snapshot = (await response.json()) as {
        lastUpdateId: number;
        bids: string[][];
        asks: string[][];
      };
      await world.control.step(3);
      await world.control.trade('aster', 'ETHUSDT', 'sell', '3');
      const after = (await (
        await fetch(`${world.endpoint}/fapi/v3/depth?symbol=ETHUSDT&limit=1000`)
      ).json()) as { lastUpdateId: number; bids: string[][]; asks: string[][] };
      await socket.next((m) => (m['data'] as Message)['u'] === after.lastUpdateId - 1);

      // Aster's own recipe ("How to manage a local order book correctly").
      const events = socket.messages
        .filter((m) => m['stream'] === 'ethusdt@depth')
        .map((m) => m['data'] as { U: number; u: number; pu: number; b: string[][]; a: string[][] })
        .filter((event) => event.u >= snapshot.lastUpdateId);
      expect(events.length).toBeGreaterThan(2);
      expect(events[0].U).toBeLessThanOrEqual(snapshot.lastUpdateId);
      expect(events[0].u).toBeGreaterThanOrEqual(snapshot.lastUpdateId);
      const bids = new Map(snapshot.bids.map(([price, size]) => [price, size]));
      const asks = new Map(snapshot.asks.map(([price, size]) => [price, size]));
      events.forEach((event, index) => {
        if (index > 0) {
          expect(event.pu).toBe(events[index - 1].u);
        }
        for (const [side, levels] of [
          [bids, event.b],
          [asks, event.a],
        ] as const) {
          for (const [price, size] of levels) {
            if (new Big(size).eq(0)) {
              side.delete(price);
            } else {
              side.set(price, size);
            }
          }
        }
      });
      const best = (side: Map<string, string>, descending: boolean): string[][] =>
        [...side]
          .sort(([a], [b]) => (descending ? new Big(b).cmp(a) : new Big(a).cmp(b)))
          .slice(0, 50);
      expect(best(bids, true)).toEqual(after.bids.slice(0, 50));
      expect(best(asks, false)).toEqual(after.asks.slice(0, 50));
    } finally {
      socket.close();
    }
  });

  it('takes SUBSCRIBE, LIST_SUBSCRIPTIONS and UNSUBSCRIBE as Aster answers them', async () => {
    const socket = await RawSocket.open(`${wsBase}/ws`);
    try {
      socket.send({ method: 'SUBSCRIBE', params: ['btcusdt@depth5'], id: 1 });
      expect(await socket.next((m) => m['id'] === 1)).toEqual({ result: null, id: 1 });
      const top = await socket.next((m) => m['e'] === 'depthUpdate');
      expect(top).toMatchObject({ s: 'BTCUSDT' });
      expect((top['b'] as unknown[]).length).toBe(5);
      socket.send({ method: 'LIST_SUBSCRIPTIONS', id: 2 });
      expect(await socket.next((m) => m['id'] === 2)).toEqual({
        result: ['btcusdt@depth5'],
        id: 2,
      });
      socket.send({ method: 'UNSUBSCRIBE', params: ['btcusdt@depth5'], id: 3 });
      expect(await socket.next((m) => m['id'] === 3)).toEqual({ result: null, id: 3 });
      socket.send({ method: 'NOPE', id: 4 });
      expect(await socket.next((m) => m['code'] === 2)).toMatchObject({ code: 2 });
    } finally {
      socket.close();
    }
  });

  it('serves watchOrders and watchMyTrades from the user data stream', async () => {
    const firstOrders = exchange.watchOrders(ETH);
    await sleep(200);
    const book = await exchange.fetchOrderBook(ETH, 5);
    const price = new Big(book.asks[0][0]).minus(0.05);
    const order = await exchange.createOrder(ETH, 'limit', 'sell', 1, price.toNumber(), {
      postOnly: true,
      clientOrderId: 'ws-maker-1',
    });
    const announced = await firstOrders;
    expect(announced.find((o) => o.id === order.id)).toMatchObject({
      status: 'open',
      clientOrderId: 'ws-maker-1',
      timeInForce: 'PO',
    });
    const trades = exchange.watchMyTrades(ETH);
    const updated = exchange.watchOrders(ETH);
    await world.control.trade('aster', 'ETHUSDT', 'buy', '0.4', price.toFixed());
    const [trade] = await trades;
    expect(trade).toMatchObject({
      order: order.id,
      side: 'sell',
      takerOrMaker: 'maker',
      price: price.toNumber(),
      amount: 0.4,
    });
    expect(trade.fee?.cost).toBeGreaterThan(0);
    expect((await updated).find((o) => o.id === order.id)).toMatchObject({
      status: 'open',
      filled: 0.4,
      remaining: 0.6,
    });
  });

  it('sends ORDER_TRADE_UPDATE (NEW, TRADE) and ACCOUNT_UPDATE on /ws/<listenKey>', async () => {
    const { listenKey } = (await (
      exchange as unknown as { fapiPrivatePostV3ListenKey: () => Promise<{ listenKey: string }> }
    ).fapiPrivatePostV3ListenKey()) as { listenKey: string };
    const socket = await RawSocket.open(`${wsBase}/ws/${listenKey}`);
    try {
      const book = await exchange.fetchOrderBook(ETH, 5);
      const price = new Big(book.bids[0][0]).plus(0.05);
      const order = await exchange.createOrder(ETH, 'limit', 'buy', 0.3, price.toNumber(), {
        postOnly: true,
      });
      const orderId = Number(order.id);
      const isOrder = (x: string) => (m: Message) =>
        m['e'] === 'ORDER_TRADE_UPDATE' &&
        (m['o'] as Message)['i'] === orderId &&
        (m['o'] as Message)['x'] === x;
      expect((await socket.next(isOrder('NEW')))['o']).toMatchObject({
        s: 'ETHUSDT',
        S: 'BUY',
        f: 'GTX',
        X: 'NEW',
        q: '0.3',
      });
      await world.control.trade('aster', 'ETHUSDT', 'sell', '0.3', price.toFixed());
      expect((await socket.next(isOrder('TRADE')))['o']).toMatchObject({
        X: 'FILLED',
        l: '0.3',
        z: '0.3',
        L: price.toFixed(),
        m: true,
        N: 'USDT',
        t: expect.any(Number),
        n: expect.any(String),
      });
      const account = await socket.next((m) => m['e'] === 'ACCOUNT_UPDATE');
      expect(account['a']).toMatchObject({
        m: 'ORDER',
        B: [expect.objectContaining({ a: 'USDT' })],
        P: [expect.objectContaining({ s: 'ETHUSDT', ps: 'BOTH' })],
      });
    } finally {
      socket.close();
    }
  });

  it('keeps a listenKey alive, closes its stream on delete, and refuses a blocked wallet its stream', async () => {
    const api = exchange as unknown as Record<string, () => Promise<Record<string, unknown>>>;
    const { listenKey } = (await api['fapiPrivatePostV3ListenKey']()) as { listenKey: string };
    expect(await api['fapiPrivatePostV3ListenKey']()).toEqual({ listenKey });
    expect(await api['fapiPrivatePutV3ListenKey']()).toEqual({});
    const socket = await RawSocket.open(`${wsBase}/ws/${listenKey}`);
    const closed = new Promise<void>((resolve) => socket.socket.once('close', () => resolve()));
    expect(await api['fapiPrivateDeleteV3ListenKey']()).toEqual({});
    await closed;
    const keepAlive = await thrown(api['fapiPrivatePutV3ListenKey']());
    expect(keepAlive).toMatchObject({ name: 'AuthenticationError' });
    expect(keepAlive.message).toContain('This listenKey does not exist.');
    expect((await thrown(RawSocket.open(`${wsBase}/ws/${listenKey}`))).message).toContain('400');

    const { listenKey: next } = (await api['fapiPrivatePostV3ListenKey']()) as {
      listenKey: string;
    };
    await world.control.loseNext('aster', {
      wallet: walletOf('streams').address,
      at: 'before',
      then: 'drop',
      blockMs: 1_000,
    });
    const book = await exchange.fetchOrderBook(ETH, 5);
    const lost = exchange.createOrder(ETH, 'limit', 'buy', 0.1, book.bids[0][0] - 5, {
      postOnly: true,
    });
    expect((await thrown(lost)).name).toBe('NetworkError');
    expect((await thrown(RawSocket.open(`${wsBase}/ws/${next}`))).message).toContain('503');
    // Public streams stay open to everyone.
    (await RawSocket.open(`${wsBase}/ws`)).close();
  });

  it('applies the venue latency to every message and cuts sockets on drop-ws', async () => {
    const socket = await RawSocket.open(`${wsBase}/ws`);
    try {
      await world.control.setLatency('aster', 250);
      const sentAt = Date.now();
      socket.send({ method: 'LIST_SUBSCRIPTIONS', id: 7 });
      await socket.next((m) => m['id'] === 7);
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(240);
    } finally {
      await world.control.setLatency('aster', 0);
    }
    const closed = new Promise<void>((resolve) => socket.socket.once('close', () => resolve()));
    const { dropped } = await world.control.dropSockets('aster', 500);
    expect(dropped).toBeGreaterThan(0);
    await closed;
    expect((await thrown(RawSocket.open(`${wsBase}/ws`))).message).toContain('503');
  });
});
