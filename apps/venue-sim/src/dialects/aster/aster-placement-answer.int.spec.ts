import Big from 'big.js';
import { DeadManWorld } from '../../control/dead-man-test-kit';
import {
  ETH,
  asterTrader,
  loggedRequests,
  startAsterWorld,
  thrown,
  type AsterCcxt,
  type AsterWorld,
} from './aster-test-kit';

jest.setTimeout(60_000);

// New Order's `newOrderRespType` ("ACK", "RESULT", default "ACK"): under the
// `placement_answer=ack` reading (the default) a request without it is
// answered as taken, before matching; its fate follows on reads.
describe('aster dialect: the placement answer (newOrderRespType)', () => {
  let world: AsterWorld;
  let exchange: AsterCcxt;

  beforeAll(async () => {
    world = await startAsterWorld();
    ({ exchange } = await asterTrader(world, 'answer'));
    await exchange.loadMarkets();
  });

  afterAll(async () => {
    await exchange.close();
    await world.sim.stop();
  });

  const takeAsk = async (params: Record<string, unknown>) => {
    const book = await exchange.fetchOrderBook(ETH, 5);
    const [askPrice, askSize] = book.asks[0];
    const size = new Big(askSize).plus(1).toNumber();
    const order = await exchange.createOrder(ETH, 'limit', 'buy', size, askPrice, {
      timeInForce: 'IOC',
      ...params,
    });
    return { order, askSize };
  };

  it('answers an IOC without newOrderRespType NEW with nothing executed; a read shows its fate', async () => {
    const { order, askSize } = await takeAsk({});
    expect(order.info).toMatchObject({ status: 'NEW', executedQty: '0', cumQuote: '0' });
    const read = await exchange.fetchOrder(String(order.id), ETH);
    expect(read.info).toMatchObject({ status: 'EXPIRED' });
    expect(read.filled).toBe(askSize);
  });

  it('answers the final status under newOrderRespType=RESULT', async () => {
    const { order, askSize } = await takeAsk({ newOrderRespType: 'RESULT' });
    expect(order.info).toMatchObject({ status: 'EXPIRED' });
    expect(order.filled).toBe(askSize);
  });

  it('refuses any other newOrderRespType (-1136)', async () => {
    const refused = await thrown(takeAsk({ newOrderRespType: 'FULL' }));
    expect(refused.message).toContain('"code":-1136');
  });

  it('answers the final status without newOrderRespType under placement_answer=result', async () => {
    await world.control.setDialectProfile('aster', { placement_answer: 'result' });
    try {
      const { order } = await takeAsk({});
      expect(order.info).toMatchObject({ status: 'EXPIRED' });
    } finally {
      await world.control.setDialectProfile('aster', { placement_answer: 'ack' });
    }
  });
});

describe('the live client under placement_answer=ack', () => {
  it('sends newOrderRespType=RESULT, and learns an IOC its final status from the answer', async () => {
    const world = await DeadManWorld.start('aster', 'ETHUSDT', `answer-ack:${Date.now()}`, {
      placement_answer: 'ack',
    });
    try {
      await world.rest(1);
      const endpoint = `${world.sim.url}/dialects/aster`;
      const depth = (await (await fetch(`${endpoint}/fapi/v3/depth?symbol=ETHUSDT`)).json()) as {
        asks: [string, string][];
      };
      const [price, size] = depth.asks[0];
      const ack = await world.client.placeIoc({
        symbol: 'ETHUSDT',
        side: 'buy',
        price,
        size: new Big(size).plus(1).toFixed(),
        clientOrderId: `ioc-${Date.now()}`,
      });
      expect(ack.order.status).not.toBe('open');
      expect(new Big(ack.order.filledSize).gt(0)).toBe(true);
      const log = await loggedRequests({ endpoint } as AsterWorld, world.wallet);
      const placements = log.filter((r) => r.method === 'POST' && r.path === '/fapi/v3/order');
      expect(placements.map((r) => r.params['newOrderRespType'])).toEqual(['RESULT', 'RESULT']);
    } finally {
      await world.stop();
    }
  });
});
