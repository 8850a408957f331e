import { egressOf, SINGLE_EGRESS } from '@sts/domain';
import { ConfigError } from '@sts/platform';
import { loadBudgetSettings } from './budget.settings';

/** The egress plan is read with the settings, so a bad one stops boot before anything opens. */
describe('budget settings: the egress plan', () => {
  it('is the single default egress when no plan is set', () => {
    expect(loadBudgetSettings({}).egressPlan).toBe(SINGLE_EGRESS);
  });

  it('reads EGRESS_PLAN, pins included', () => {
    const plan = loadBudgetSettings({
      EGRESS_PLAN: JSON.stringify({
        egresses: [
          { id: 'a', bind: '198.51.100.1' },
          { id: 'b', bind: '198.51.100.2' },
        ],
        accounts: { 'hyperliquid:0xAbC': 'b' },
      }),
    }).egressPlan;
    expect(plan.egresses.map((egress) => egress.id)).toEqual(['a', 'b']);
    expect(egressOf(plan, 'hyperliquid', '0xabc').id).toBe('b');
  });

  it('refuses a plan naming an unknown egress or venue, with every problem listed', () => {
    const load = () =>
      loadBudgetSettings({
        EGRESS_PLAN: JSON.stringify({
          egresses: [{ id: 'a' }],
          accounts: { 'hyperliquid:0xabc': 'b', 'nowhere:0xdef': 'a' },
        }),
      });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/names egress "b", which is not in egresses/);
    expect(load).toThrow(/names venue "nowhere", which is unknown/);
  });

  it('refuses a plan file it cannot read', () => {
    expect(() => loadBudgetSettings({ EGRESS_PLAN_FILE: '/nonexistent/egress-plan.json' })).toThrow(
      ConfigError,
    );
  });

  it('takes bind addresses this host does not hold: it never binds and may run elsewhere', () => {
    const plan = loadBudgetSettings({
      EGRESS_PLAN: JSON.stringify({ egresses: [{ id: 'a', bind: '198.51.100.9' }] }),
    }).egressPlan;
    expect(plan.egresses).toEqual([{ id: 'a', bind: '198.51.100.9' }]);
  });
});
