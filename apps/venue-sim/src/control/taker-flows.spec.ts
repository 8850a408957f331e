import { InvalidTakerFlowError, parseTakerFlowSetting, TakerFlows } from './taker-flows';

describe('taker flow settings', () => {
  it('reads VENUE_SIM_FLOW into each venue its settings, and refuses a malformed entry', () => {
    expect(
      parseTakerFlowSetting(
        'hyperliquid.informed_taker_share=0.5, hyperliquid.informed_horizon_ms=60000,lighter.informed_taker_share=1',
      ),
    ).toEqual({
      hyperliquid: { informed_taker_share: 0.5, informed_horizon_ms: 60_000 },
      lighter: { informed_taker_share: 1 },
    });
    expect(parseTakerFlowSetting(undefined)).toEqual({});
    expect(() => parseTakerFlowSetting('hyperliquid=1')).toThrow(InvalidTakerFlowError);
  });

  it('starts random, sets a venue all or nothing, and fails fast on a bad start', () => {
    const flows = new TakerFlows(['hyperliquid', 'lighter'], {
      lighter: { informed_taker_share: 0.25 },
    });
    expect(flows.of('hyperliquid')).toEqual({ share: 0, horizonMs: 10_000 });
    expect(flows.of('lighter')).toEqual({ share: 0.25, horizonMs: 10_000 });
    expect(() =>
      flows.set('hyperliquid', { informed_taker_share: 1, informed_horizon_ms: 0 }),
    ).toThrow(InvalidTakerFlowError);
    expect(() => flows.set('hyperliquid', { informed_share: 1 })).toThrow(/unknown flow setting/);
    expect(flows.of('hyperliquid').share).toBe(0);
    expect(flows.set('hyperliquid', { informed_horizon_ms: 1_000 })).toEqual({
      informed_taker_share: 0,
      informed_horizon_ms: 1_000,
    });
    expect(() => new TakerFlows(['lighter'], { aster: { informed_taker_share: 1 } })).toThrow(
      /unknown venue aster/,
    );
    expect(
      () =>
        new TakerFlows(['lighter'], parseTakerFlowSetting('lighter.informed_taker_share=1.2.3')),
    ).toThrow(/from 0 to 1/);
  });
});
