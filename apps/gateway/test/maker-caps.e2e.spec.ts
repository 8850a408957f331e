import { GatewayHarness, type HttpResult } from './gateway-harness';

/**
 * Validation 6 per venue (issue 35's untested rows): the concurrent maker-trade
 * cap of each (wallet, maker venue), and a cap counter shared by the venues of
 * one `cap_group`. The interface's 409 body: `max N concurrent maker trades on
 * {exchange} ... already has M active`; decisions 4: code `maker_cap_exceeded`.
 */
const VENUES = ['hyperliquid', 'lighter', 'paradex', 'extended', 'aster'];

type Trader = Awaited<ReturnType<GatewayHarness['trader']>>;

/** A create body whose maker leg is on `maker` and whose hedge leg is on `hedge`. */
function makerOn(
  gateway: GatewayHarness,
  trader: Trader,
  maker: string,
  hedge: string,
  makerLeg: 'long' | 'short',
): Record<string, unknown> {
  const [long, short] = makerLeg === 'long' ? [maker, hedge] : [hedge, maker];
  return gateway.tradeBody(trader.wallet, {
    long_exchange: long,
    short_exchange: short,
    maker_leg: makerLeg,
  });
}

function expectCapRefusal(response: HttpResult, venue: string, cap: number): void {
  expect(response.status).toBe(409);
  expect(response.body.code).toBe('maker_cap_exceeded');
  expect(response.body.error).toMatch(
    new RegExp(`^max ${cap} concurrent maker trades on ${venue} .* already has ${cap} active$`),
  );
}

function client(gateway: GatewayHarness, trader: Trader) {
  return {
    create: (body: Record<string, unknown>) =>
      gateway.request('POST', '/api/v1/trades', { headers: trader.headers, body }),
    cancel: async (tradeId: string) => {
      const response = await gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
        headers: trader.headers,
      });
      expect(response.status).toBe(200);
    },
  };
}

describe('maker cap of each venue (default registry)', () => {
  const gateway = new GatewayHarness();

  beforeAll(() => gateway.start({ venues: true, budget: true }));
  afterAll(() => gateway.stop());

  it.each([
    ['aster', 1, 'hyperliquid', 'long'],
    ['lighter', 3, 'paradex', 'short'],
    ['paradex', 2, 'extended', 'long'],
    ['extended', 2, 'aster', 'short'],
  ] as const)(
    '%s: %i maker trades per wallet are accepted, one more is 409 maker_cap_exceeded',
    async (venue, cap, hedge, makerLeg) => {
      // A wallet of its own: the caps count per wallet.
      const trader = await gateway.trader(VENUES);
      const { create, cancel } = client(gateway, trader);
      const accepted: string[] = [];
      for (let index = 0; index < cap; index += 1) {
        const response = await create(makerOn(gateway, trader, venue, hedge, makerLeg));
        expect(response.status).toBe(202);
        accepted.push(response.body.trade_id);
      }
      expectCapRefusal(await create(makerOn(gateway, trader, venue, hedge, makerLeg)), venue, cap);
      // The same venue as the hedge leg is not a maker trade there: not counted, not refused.
      const opposite = makerLeg === 'long' ? 'short' : 'long';
      const asHedge = await create(makerOn(gateway, trader, hedge, venue, opposite));
      expect(asHedge.status).toBe(202);
      // A finished trade frees its place.
      await cancel(accepted.pop()!);
      const again = await create(makerOn(gateway, trader, venue, hedge, makerLeg));
      expect(again.status).toBe(202);
      for (const tradeId of [...accepted, asHedge.body.trade_id, again.body.trade_id]) {
        await cancel(tradeId);
      }
    },
  );
});

describe('a cap_group shared by two venues (VENUE_EXTENDED_CAP_GROUP=paradex)', () => {
  const gateway = new GatewayHarness();
  let trader: Trader;

  beforeAll(async () => {
    await gateway.start({
      venues: true,
      budget: true,
      env: { VENUE_EXTENDED_CAP_GROUP: 'paradex' },
    });
    trader = await gateway.trader(VENUES);
  });
  afterAll(() => gateway.stop());

  it('counts maker trades on paradex and on extended against one cap of 2', async () => {
    const { create, cancel } = client(gateway, trader);
    const onParadex = await create(makerOn(gateway, trader, 'paradex', 'hyperliquid', 'long'));
    expect(onParadex.status).toBe(202);
    const onExtended = await create(makerOn(gateway, trader, 'extended', 'hyperliquid', 'long'));
    expect(onExtended.status).toBe(202);

    // One trade on each venue: alone, either would have room for a second.
    expectCapRefusal(
      await create(makerOn(gateway, trader, 'paradex', 'hyperliquid', 'long')),
      'paradex',
      2,
    );
    expectCapRefusal(
      await create(makerOn(gateway, trader, 'extended', 'aster', 'short')),
      'extended',
      2,
    );
    // A venue outside the group keeps its own counter.
    const onHyperliquid = await create(makerOn(gateway, trader, 'hyperliquid', 'paradex', 'long'));
    expect(onHyperliquid.status).toBe(202);

    // Ending the extended trade frees the group's place for paradex.
    await cancel(onExtended.body.trade_id);
    const freed = await create(makerOn(gateway, trader, 'paradex', 'hyperliquid', 'long'));
    expect(freed.status).toBe(202);
    for (const response of [onParadex, onHyperliquid, freed]) {
      await cancel(response.body.trade_id);
    }
  });
});
