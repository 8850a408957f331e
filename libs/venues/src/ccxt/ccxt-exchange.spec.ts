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
});
