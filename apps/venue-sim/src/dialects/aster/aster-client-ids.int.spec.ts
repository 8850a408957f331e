import Big from 'big.js';
import {
  CcxtVenueClient,
  OrderRejectedError,
  PostOnlyWouldCrossError,
  createCcxtExchange,
  type PlaceOrderRequest,
} from '@sts/venues';
import { ETH, asterTrader, startAsterWorld, walletOf, type AsterWorld } from './aster-test-kit';

// Aster: "newClientOrderId: A unique id among open orders" (futures v3 docs,
// New Order). The live client over the unmodified ccxt, and the venue's own
// records (/control/venues/aster/accounts/<wallet>/orders), say what happened.
describe('aster dialect: client order ids unique among open orders, and GTX that would cross', () => {
  let world: AsterWorld;
  let client: CcxtVenueClient;
  let address: string;

  beforeAll(async () => {
    world = await startAsterWorld();
    const wallet = walletOf('client-ids');
    address = wallet.address;
    await world.control.deposit('aster', address, '100000');
    const exchange = await createCcxtExchange(
      'aster',
      { privateKey: wallet.privateKey, walletAddress: address },
      { endpoint: world.endpoint },
    );
    client = new CcxtVenueClient({ venue: 'aster', exchange });
    await client.connect();
  });

  afterEach(async () => {
    await world.control.setDialectProfile('aster', { post_only_cross: 'refuse' });
  });

  afterAll(async () => {
    await client.close();
    await world.sim.stop();
  });

  const touch = async (): Promise<{ bid: Big; ask: Big }> => {
    const response = await fetch(`${world.endpoint}/fapi/v3/depth?symbol=ETHUSDT&limit=5`);
    const book = (await response.json()) as { bids: string[][]; asks: string[][] };
    return { bid: new Big(book.bids[0][0]), ask: new Big(book.asks[0][0]) };
  };

  const recorded = async (clientOrderId: string) =>
    (await world.control.accountOrders('aster', address)).orders.filter((order) =>
      order.client_order_id.startsWith(clientOrderId),
    );

  it('makes a new order of an IOC sent again with the id of one that closed, and the client says so', async () => {
    const { ask } = await touch();
    const request: PlaceOrderRequest = {
      symbol: 'ETHUSDT',
      side: 'buy',
      price: ask.minus(10).toFixed(),
      size: '0.1',
      clientOrderId: 'reused-ioc-1',
    };
    const first = await client.placeIoc(request);
    expect(first.order.status).toBe('canceled');
    const again = await client.placeIoc(request);
    expect(again.duplicate).toBe(false);
    expect(again.order.orderId).not.toBe(first.order.orderId);
    expect(again.order.clientOrderId).toBe('reused-ioc-1');
    expect(await recorded('reused-ioc-1')).toHaveLength(2);
  });

  it('believes a duplicate only for the same request still open; another request under the id is an error', async () => {
    const { bid } = await touch();
    const request: PlaceOrderRequest = {
      symbol: 'ETHUSDT',
      side: 'buy',
      price: bid.minus(20).toFixed(),
      size: '0.1',
      clientOrderId: 'resting-dup-1',
    };
    const first = await client.placePostOnly(request);
    const retried = await client.placePostOnly(request);
    expect(retried).toMatchObject({ duplicate: true, order: { orderId: first.order.orderId } });
    const other = client.placePostOnly({ ...request, price: bid.minus(21).toFixed() });
    await expect(other).rejects.toBeInstanceOf(OrderRejectedError);
    await expect(other.catch((error: OrderRejectedError) => error.reason)).resolves.toBe(
      'duplicate_client_order_id',
    );
    expect(await recorded('resting-dup-1')).toHaveLength(1);
    await client.cancel({ orderId: first.order.orderId, symbol: 'ETHUSDT' });
    const afterClose = await client.placePostOnly(request);
    expect(afterClose.duplicate).toBe(false);
    expect(afterClose.order.orderId).not.toBe(first.order.orderId);
    expect(await recorded('resting-dup-1')).toHaveLength(2);
  });

  it('post_only_cross=expire: the venue records the GTX order EXPIRED unfilled; the client reports a would-cross', async () => {
    await world.control.setDialectProfile('aster', { post_only_cross: 'expire' });
    const { exchange } = await asterTrader(world, 'client-ids-raw');
    const { ask } = await touch();
    const raw = await exchange.createOrder(ETH, 'limit', 'buy', 0.1, ask.toNumber(), {
      timeInForce: 'GTX',
      clientOrderId: 'expired-gtx-raw',
      newOrderRespType: 'RESULT',
    });
    expect(raw.info).toMatchObject({ status: 'EXPIRED', executedQty: '0', timeInForce: 'GTX' });
    const found = await exchange.fetchOrder('', ETH, { clientOrderId: 'expired-gtx-raw' });
    expect(found.info).toMatchObject({ status: 'EXPIRED', orderId: raw.info['orderId'] });
    await exchange.close();
    const attempt = client.placePostOnly({
      symbol: 'ETHUSDT',
      side: 'buy',
      price: ask.toFixed(),
      size: '0.1',
      clientOrderId: 'expired-gtx-1',
    });
    await expect(attempt).rejects.toBeInstanceOf(PostOnlyWouldCrossError);
    const records = await recorded('expired-gtx-1');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 'canceled' });
    expect(await client.openOrders('ETHUSDT')).not.toContainEqual(
      expect.objectContaining({ clientOrderId: 'expired-gtx-1' }),
    );
  });
});
