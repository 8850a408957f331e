import { createCcxtExchange, strictlyIncreasingMilliseconds } from './ccxt-exchange';

describe('the live exchange as the service builds it (offline)', () => {
  it("never repeats a millisecond, so Aster's nonces of one account never collide", () => {
    let now = 1_000;
    const clock = strictlyIncreasingMilliseconds(() => now);
    expect([clock(), clock(), clock()]).toEqual([1_000, 1_001, 1_002]);
    now = 1_001;
    expect(clock()).toBe(1_003);
    now = 2_000;
    expect(clock()).toBe(2_000);
  });

  it('points only urls.api at the endpoint and switches every integrator fee off', async () => {
    const hyperliquid = (await createCcxtExchange(
      'hyperliquid',
      {},
      { endpoint: 'http://127.0.0.1:7100/dialects/hyperliquid' },
    )) as unknown as {
      urls: { api: Record<string, unknown> };
      options: Record<string, unknown>;
      enableRateLimit: boolean;
      handleBuilderFeeApproval(): Promise<boolean>;
      approveBuilderFee(): Promise<unknown>;
    };
    expect(hyperliquid.urls.api).toEqual({
      public: 'http://127.0.0.1:7100/dialects/hyperliquid',
      private: 'http://127.0.0.1:7100/dialects/hyperliquid',
      ws: { public: 'ws://127.0.0.1:7100/dialects/hyperliquid/ws' },
    });
    expect(hyperliquid.options).toMatchObject({
      builderFee: false,
      approvedBuilderFee: false,
      refSet: true,
    });
    expect(hyperliquid.enableRateLimit).toBe(false);
    // The approval step approves nothing: it never reaches ccxt's approveBuilderFee.
    const approve = jest.spyOn(hyperliquid, 'approveBuilderFee');
    await expect(hyperliquid.handleBuilderFeeApproval()).resolves.toBe(true);
    expect(approve).not.toHaveBeenCalled();
    expect(hyperliquid.options['approvedBuilderFee']).toBe(false);

    const aster = (await createCcxtExchange('aster', {})) as unknown as {
      urls: { api: Record<string, unknown> };
      options: Record<string, unknown>;
    };
    expect(aster.options).toMatchObject({ builderFee: false });
    expect(aster.urls.api['fapiPrivate']).toBe('https://fapi.asterdex.com/fapi');
  });

  it('builds Extended orders with no builder and no builder fee signed into the settlement', async () => {
    const extended = (await createCcxtExchange('extended', {
      apiKey: 'key',
      secret: '0x' + '3'.repeat(60),
      privateKey: '0x' + '3'.repeat(60),
    })) as unknown as {
      options: Record<string, unknown>;
      markets: unknown;
      setMarkets(markets: unknown[]): void;
      loadMarkets(): Promise<unknown>;
      fetchExtendedAccount(): Promise<unknown>;
      createExtendedOrderRequest(
        symbol: string,
        type: string,
        side: string,
        amount: number,
        price: number,
        params?: Record<string, unknown>,
      ): Promise<{ request: Record<string, unknown> }>;
      createOrderSettlementData(
        isBuy: boolean,
        amount: string,
        price: string,
        params: Record<string, unknown>,
      ): Record<string, unknown>;
    };
    // ccxt's own defaults, which the service must override.
    expect(extended.options['builderId']).toBe('257624');
    extended.loadMarkets = async () => extended.markets;
    extended.setMarkets([
      {
        id: 'BTC-USD',
        symbol: 'BTC/USD:USD',
        base: 'BTC',
        quote: 'USD',
        settle: 'USD',
        type: 'swap',
        swap: true,
        contract: true,
        linear: true,
        precision: { amount: 0.0001, price: 1 },
        limits: {},
        info: {
          l2Config: {
            syntheticId: '0x4254432d3600000000000000000000',
            collateralId: '0x35a73f7c87b7e3da2d0d3f8ecf6d0d1e4ce0d63d8d4b4ca1a1a5cd98b2b2a3a',
            syntheticResolution: 1_000_000,
            collateralResolution: 1_000_000,
          },
        },
      },
    ]);
    extended.fetchExtendedAccount = async () => ({ l2Key: '0x1', l2Vault: '1' });
    const signed: Record<string, unknown>[] = [];
    const settle = extended.createOrderSettlementData.bind(extended);
    extended.createOrderSettlementData = (isBuy, amount, price, params) => {
      signed.push(params);
      return settle(isBuy, amount, price, params);
    };
    const { request } = await extended.createExtendedOrderRequest(
      'BTC/USD:USD',
      'limit',
      'buy',
      0.01,
      100_000,
      { postOnly: true, clientOrderId: 'c-1' },
    );
    expect(request).not.toHaveProperty('builderFee');
    expect(request).not.toHaveProperty('builderId');
    // The fee signed is the venue's own cap, with nothing added for a builder.
    expect(signed[0]['totalFee']).toBe(request['fee']);
  });

  it('sends from an egress’s bind address: undici’s dispatcher and the sockets’ agents, nothing without one', async () => {
    type Transport = {
      getDispatcherOptions(plain?: boolean): Record<string, unknown>;
      httpAgent?: { options: Record<string, unknown> };
      agent?: { options: Record<string, unknown> };
    };
    const bound = (await createCcxtExchange(
      'paradex',
      {},
      {
        endpoint: 'http://127.0.0.1:7100/dialects/paradex',
        egress: { id: 'a', bind: '127.0.0.2' },
      },
    )) as unknown as Transport;
    expect(bound.getDispatcherOptions(true)).toMatchObject({
      localAddress: '127.0.0.2',
      pipelining: 1,
    });
    expect(bound.getDispatcherOptions(false)).not.toHaveProperty('localAddress');
    expect(bound.httpAgent?.options).toMatchObject({ localAddress: '127.0.0.2' });
    expect(bound.agent?.options).toMatchObject({ localAddress: '127.0.0.2' });

    const unbound = (await createCcxtExchange(
      'paradex',
      {},
      {
        egress: { id: 'default' },
      },
    )) as unknown as Transport;
    expect(unbound.getDispatcherOptions(true)).not.toHaveProperty('localAddress');
    expect(unbound.httpAgent).toBeUndefined();
    expect(unbound.agent).toBeUndefined();
  });
});
