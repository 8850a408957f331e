import Big from 'big.js';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createCcxtExchange } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { SimControl } from '../../testing/sim-control';

// The Paradex dialect's accounts as ccxt 4.5.84 meets them: markets, the
// onboarding that registers a stark key, the signed auth that issues a bearer
// token, and the account reads behind it.

interface ParadexCcxt {
  loadMarkets(): Promise<Record<string, { id: string }>>;
  retrieveAccount(): Promise<{ address: string; publicKey: string }>;
  onboarding(): Promise<unknown>;
  fetchBalance(): Promise<Record<string, { total?: number }>>;
  fetchPositions(): Promise<unknown[]>;
  createOrder(
    symbol: string,
    type: string,
    side: string,
    amount: number,
    price: number,
    params?: Record<string, unknown>,
  ): Promise<{ id?: string; status?: string; info: Record<string, unknown> }>;
  signOrderRequest(
    request: Record<string, unknown>,
    modify?: boolean,
  ): Promise<Record<string, unknown>>;
  fetchOrderBook(symbol: string): Promise<{ bids: number[][]; asks: number[][] }>;
  cancelOrder(id: string, symbol?: string): Promise<unknown>;
  fetchOrder(
    id: string,
    symbol?: string,
    params?: Record<string, unknown>,
  ): Promise<{ info: Record<string, unknown> }>;
  fetchOrders(
    symbol?: string,
    since?: number,
    limit?: number,
    params?: Record<string, unknown>,
  ): Promise<{ id: string; info: Record<string, unknown> }[]>;
  options: Record<string, unknown>;
  close(): Promise<void>;
}

let sim: RunningVenueSim;
let control: SimControl;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 5, tickMs: 0 });
  control = new SimControl(sim.url);
});

afterAll(async () => {
  await sim.stop();
});

const keyOf = (label: string) => keccak256(toHex(`paradex-rest-spec:${label}`));
const walletOf = (label: string) => privateKeyToAccount(keyOf(label)).address.toLowerCase();

async function trader(label: string): Promise<ParadexCcxt> {
  const privateKey = keyOf(label);
  return (await createCcxtExchange(
    'paradex',
    { privateKey, walletAddress: privateKeyToAccount(privateKey).address },
    { endpoint: `${sim.url}/dialects/paradex` },
  )) as unknown as ParadexCcxt;
}

async function thrown(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
  throw new Error('expected the call to throw');
}

describe('Paradex dialect: accounts', () => {
  it("lists the venue's perpetuals as ccxt reads them", async () => {
    const exchange = await trader('markets');
    try {
      const markets = await exchange.loadMarkets();
      expect(markets['BTC/USD:USDC']?.id).toBe('BTC-USD-PERP');
      expect(Object.keys(markets)).toHaveLength(4);
    } finally {
      await exchange.close();
    }
  });

  it("refuses auth before onboarding, then serves the account (its wallet's deposits) once its stark key is onboarded", async () => {
    const exchange = await trader('onboarded');
    try {
      expect(await thrown(exchange.fetchBalance())).toMatch(/NOT_ONBOARDED/);
      await exchange.onboarding();
      await control.deposit('paradex', walletOf('onboarded'), '2500');
      const balance = await exchange.fetchBalance();
      expect(balance['USDC']?.total).toBe(2500);
      expect(await exchange.fetchPositions()).toEqual([]);
    } finally {
      await exchange.close();
    }
  });

  it('refuses an auth signed by a key other than the onboarded one', async () => {
    const owner = await trader('owner');
    const intruder = await trader('intruder');
    try {
      const account = await owner.retrieveAccount();
      await owner.onboarding();
      // The intruder signs for the owner's account with its own key.
      const own = await intruder.retrieveAccount();
      intruder.options['paradexAccount'] = { ...own, address: account.address };
      expect(await thrown(intruder.fetchBalance())).toMatch(
        /STARKNET_SIGNATURE_VERIFICATION_FAILED/,
      );
    } finally {
      await owner.close();
      await intruder.close();
    }
  });

  it('refuses an onboarding whose account is not the one its key derives', async () => {
    const exchange = await trader('wrong-address');
    try {
      const account = await exchange.retrieveAccount();
      exchange.options['paradexAccount'] = { ...account, address: '0x1234' };
      expect(await thrown(exchange.onboarding())).toMatch(/INVALID_STARKNET_ADDRESS/);
    } finally {
      await exchange.close();
    }
  });

  it('queues a signed order NEW, and refuses one changed after ccxt signed it', async () => {
    const exchange = await trader('orders');
    try {
      await exchange.onboarding();
      await control.deposit('paradex', walletOf('orders'), '100000');
      const book = await exchange.fetchOrderBook('ETH/USD:USDC');
      const bid = book.bids[0][0];
      const placed = await exchange.createOrder('ETH/USD:USDC', 'limit', 'buy', 0.1, bid, {
        postOnly: true,
        clientOrderId: 'pdx-spec-1',
      });
      expect(placed.info['status']).toBe('NEW');
      const sign = exchange.signOrderRequest.bind(exchange);
      exchange.signOrderRequest = async (request, modify) => {
        const signed = await sign(request, modify);
        return { ...signed, price: String(Number(signed['price']) - 1) };
      };
      expect(
        await thrown(
          exchange.createOrder('ETH/USD:USDC', 'limit', 'buy', 0.1, bid, {
            postOnly: true,
            clientOrderId: 'pdx-spec-2',
          }),
        ),
      ).toMatch(/INVALID_ORDER_SIGNATURE/);
    } finally {
      await exchange.close();
    }
  });
});

describe('Paradex dialect: the receive window', () => {
  it('refuses an order that reaches the venue past signature_timestamp + recv_window and records nothing; takes one inside it', async () => {
    const exchange = await trader('recv-window');
    try {
      await exchange.onboarding();
      await control.deposit('paradex', walletOf('recv-window'), '100000');
      const bid = (await exchange.fetchOrderBook('ETH/USD:USDC')).bids[0][0];
      const place = (clientOrderId: string, recvWindow: number) =>
        exchange.createOrder('ETH/USD:USDC', 'limit', 'buy', 0.1, bid, {
          postOnly: true,
          clientOrderId,
          recv_window: recvWindow,
        });
      // ccxt signs whole seconds: 2.5 s of delay outlives a 1.5 s window whatever the truncation.
      await control.delayNext('paradex', 1, 2_500);
      expect(await thrown(place('pdx-window-late', 1_500))).toMatch(/INVALID_TIMESTAMP/);
      await control.delayNext('paradex', 1, 500);
      expect((await place('pdx-window-in-time', 5_000)).info['status']).toBe('NEW');
      const { orders } = await control.accountOrders('paradex', walletOf('recv-window'));
      expect(orders.map((order) => order.client_order_id)).toEqual(['pdx-window-in-time']);
    } finally {
      await exchange.close();
    }
  });
});

describe('Paradex dialect: queued cancels and closed orders', () => {
  it('answers a cancel 204 with the order still on the book; after, it is closed, in the history by client id, not by the open-only look-ups by id or client id', async () => {
    const exchange = await trader('queued');
    const symbol = 'ETH/USD:USDC';
    try {
      await exchange.onboarding();
      await control.deposit('paradex', walletOf('queued'), '100000');
      const bid = (await exchange.fetchOrderBook(symbol)).bids[0][0];
      const placed = await exchange.createOrder(symbol, 'limit', 'buy', 0.1, bid, {
        postOnly: true,
        clientOrderId: 'queued-1',
      });
      await exchange.cancelOrder(placed.id!, symbol);
      // Queued: the simulator's record still has the order resting after the 204.
      const resting = await control.accountOrders('paradex', walletOf('queued'), {
        status: 'open',
      });
      expect(resting.orders.map((order) => order.client_order_id)).toEqual(['queued-1']);

      expect(await thrown(exchange.fetchOrder(placed.id!, symbol))).toMatch(/ORDER_ID_NOT_FOUND/);
      expect(await thrown(exchange.fetchOrder('', symbol, { clientOrderId: 'queued-1' }))).toMatch(
        /CLIENT_ORDER_ID_NOT_FOUND/,
      );
      const history = await exchange.fetchOrders(symbol, undefined, undefined, {
        client_id: 'queued-1',
      });
      expect(history.map((order) => [order.id, order.info['status']])).toEqual([
        [placed.id, 'CLOSED'],
      ]);
      expect(history[0]?.info).toMatchObject({ cancel_reason: 'USER_CANCELED' });
      const open = await exchange.fetchOrders(symbol, undefined, undefined, { status: 'OPEN' });
      expect(open).toEqual([]);
    } finally {
      await exchange.close();
    }
  });
});

// The worker unwinds a trade's remainder with a reduce-only IOC: ccxt 4.5.84
// sends its reduceOnly param to Paradex as `flags: ["REDUCE_ONLY"]`, beside
// the signed order (the flag is not part of what is signed).
describe('Paradex dialect: reduce-only IOCs (flags REDUCE_ONLY)', () => {
  const symbol = 'ETH/USD:USDC';

  async function position(label: string): Promise<string> {
    const { fills } = await control.accountFills('paradex', walletOf(label));
    return fills
      .filter((fill) => fill['symbol'] === 'ETH-USD-PERP')
      .reduce(
        (net, fill) =>
          fill['side'] === 'buy'
            ? net.plus(fill['size'] as string)
            : net.minus(fill['size'] as string),
        new Big(0),
      )
      .toFixed();
  }

  const closed = async (exchange: ParadexCcxt, clientId: string) => {
    const [order] = await exchange.fetchOrders(symbol, undefined, undefined, {
      client_id: clientId,
    });
    return order?.info;
  };

  it('takes one down to the position, and closes one with nothing to reduce', async () => {
    const exchange = await trader('reduce-only');
    try {
      await exchange.onboarding();
      await control.deposit('paradex', walletOf('reduce-only'), '100000');
      const book = await exchange.fetchOrderBook(symbol);
      const [bid, ask] = [book.bids[0][0], book.asks[0][0]];
      await exchange.createOrder(symbol, 'limit', 'buy', 0.05, ask, { timeInForce: 'IOC' });
      const placed = await exchange.createOrder(symbol, 'limit', 'sell', 0.08, bid, {
        timeInForce: 'IOC',
        reduceOnly: true,
        clientOrderId: 'unwind-1',
      });
      // Signed as ccxt signs (no flags in the typed data), queued NEW with its flag.
      expect(placed.info).toMatchObject({ status: 'NEW', flags: ['REDUCE_ONLY'] });
      expect(await closed(exchange, 'unwind-1')).toMatchObject({
        status: 'CLOSED',
        size: '0.08',
        remaining_size: '0.03',
        flags: ['REDUCE_ONLY'],
      });
      expect(await position('reduce-only')).toBe('0');

      const flat = await exchange.createOrder(symbol, 'limit', 'buy', 0.05, ask, {
        timeInForce: 'IOC',
        reduceOnly: true,
        clientOrderId: 'unwind-2',
      });
      expect(flat.info['status']).toBe('NEW');
      expect(await closed(exchange, 'unwind-2')).toMatchObject({
        status: 'CLOSED',
        remaining_size: '0.05',
        cancel_reason: 'REDUCE_ONLY_WOULD_INCREASE',
      });
      expect(await position('reduce-only')).toBe('0');
    } finally {
      await exchange.close();
    }
  });

  it('spares one below the minimum order value only when it closes the whole position', async () => {
    const exchange = await trader('reduce-only-min');
    try {
      await exchange.onboarding();
      await control.deposit('paradex', walletOf('reduce-only-min'), '100000');
      const book = await exchange.fetchOrderBook(symbol);
      const [bid, ask] = [book.bids[0][0], book.asks[0][0]];
      await exchange.createOrder(symbol, 'limit', 'buy', 0.04, ask, { timeInForce: 'IOC' });
      await exchange.createOrder(symbol, 'limit', 'sell', 0.031, bid, { timeInForce: 'IOC' });
      // 0.009 ETH left, about 30 USD, under the 100 USD minimum.
      expect(await position('reduce-only-min')).toBe('0.009');
      expect(
        await thrown(
          exchange.createOrder(symbol, 'limit', 'sell', 0.005, bid, {
            timeInForce: 'IOC',
            reduceOnly: true,
          }),
        ),
      ).toMatch(/minimum notional/);
      await exchange.createOrder(symbol, 'limit', 'sell', 0.009, bid, {
        timeInForce: 'IOC',
        reduceOnly: true,
        clientOrderId: 'closing',
      });
      expect(await position('reduce-only-min')).toBe('0');
      expect(
        await thrown(
          exchange.createOrder(symbol, 'limit', 'sell', 0.04, bid + 50, {
            postOnly: true,
            reduceOnly: true,
          }),
        ),
      ).toMatch(/REDUCE_ONLY on IOC orders only/);
    } finally {
      await exchange.close();
    }
  });
});
