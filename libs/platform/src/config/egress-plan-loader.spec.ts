import { egressOf, SINGLE_EGRESS } from '@sts/domain';
import { ConfigError } from './load-config';
import { loadEgressPlan, parseEgressPlan } from './egress-plan-loader';

/** Egresses on addresses of the loopback block, one each. */
const lanes = (ids: string[]): Array<{ id: string; bind: string }> =>
  ids.map((id, index) => ({ id, bind: `127.0.0.${index + 2}` }));

describe('the egress plan', () => {
  it('is one default egress when nothing is set', () => {
    expect(loadEgressPlan({})).toBe(SINGLE_EGRESS);
    expect(egressOf(SINGLE_EGRESS, 'hyperliquid', '0xabc').id).toBe('default');
  });

  it('sends a pinned account, then a pinned wallet, through its egress', () => {
    const plan = loadEgressPlan({
      EGRESS_PLAN: JSON.stringify({
        egresses: [
          { id: 'a', bind: '127.0.0.2' },
          { id: 'b', bind: '127.0.0.3' },
        ],
        accounts: { 'hyperliquid:0xABC': 'b', '0xabc': 'a' },
      }),
    });
    expect(egressOf(plan, 'hyperliquid', '0xabc')).toEqual({ id: 'b', bind: '127.0.0.3' });
    expect(egressOf(plan, 'aster', '0xAbc')).toEqual({ id: 'a', bind: '127.0.0.2' });
  });

  it('spreads unpinned accounts over every egress, the same way each time', () => {
    const plan = parseEgressPlan({ egresses: lanes(['a', 'b', 'c']) });
    const wallets = Array.from({ length: 300 }, (_, index) => `0x${index.toString(16)}`);
    const counts = new Map<string, number>();
    for (const wallet of wallets) {
      const id = egressOf(plan, 'hyperliquid', wallet).id;
      expect(egressOf(plan, 'hyperliquid', wallet).id).toBe(id);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['a', 'b', 'c']);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(60);
    }
    // A fourth egress takes accounts from the others and moves no account between them.
    const grown = parseEgressPlan({ egresses: lanes(['a', 'b', 'c', 'd']) });
    for (const wallet of wallets) {
      const after = egressOf(grown, 'hyperliquid', wallet).id;
      expect([egressOf(plan, 'hyperliquid', wallet).id, 'd']).toContain(after);
    }
  });

  it('refuses an unknown egress, an unknown venue, a duplicate id and a bind that is no address', () => {
    const refusal = (): unknown =>
      parseEgressPlan({
        egresses: [{ id: 'a', bind: 'not-an-ip' }, { id: 'a' }],
        accounts: { 'hyperliquid:0x1': 'z', 'binance:0x2': 'a' },
      });
    expect(refusal).toThrow(ConfigError);
    try {
      refusal();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'EGRESS_PLAN: egress "a" bind must be an IP address',
        'EGRESS_PLAN: egress "a" is listed twice',
        'EGRESS_PLAN: account "hyperliquid:0x1" names egress "z", which is not in egresses',
        'EGRESS_PLAN: account "binance:0x2" names venue "binance", which is unknown',
      ]);
    }
    expect(() => parseEgressPlan({ egresses: [] })).toThrow(/at least one egress/);
  });

  it('refuses two egresses that leave from one address, which the venue counts once', () => {
    const problems = (raw: Parameters<typeof parseEgressPlan>[0]): string[] => {
      try {
        parseEgressPlan(raw);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ egresses: [{ id: 'a' }, { id: 'b', bind: '0.0.0.0' }] })).toEqual([
      'EGRESS_PLAN: egresses "a", "b" all leave from the host\'s default address: the venue counts them as one address',
    ]);
    expect(
      problems({
        egresses: [
          { id: 'a', bind: '2001:DB8:0::10' },
          { id: 'b', bind: '2001:db8::10' },
          { id: 'c', bind: '127.0.0.2' },
        ],
      }),
    ).toEqual([
      'EGRESS_PLAN: egresses "a", "b" all leave from 2001:db8::10: the venue counts them as one address',
    ]);
    expect(problems({ egresses: [{ id: 'a' }, { id: 'b', bind: '127.0.0.2' }] })).toEqual([]);
    expect(() => loadEgressPlan({ EGRESS_PLAN: '{' })).toThrow(/not readable JSON/);
  });
});
