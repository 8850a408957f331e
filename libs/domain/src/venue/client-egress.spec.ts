import { clientEgress, publicEgress } from './client-egress';
import { type EgressPlan, egressOf } from './egress-plan';

const plan: EgressPlan = {
  egresses: [
    { id: 'a', bind: '127.0.0.2' },
    { id: 'b', bind: '127.0.0.3' },
  ],
  pins: new Map([['hyperliquid:0xabc', 'b']]),
};

describe('a venue client’s egress', () => {
  it('is its account’s, pinned or hashed, as egressOf says', () => {
    expect(clientEgress(plan, 'hyperliquid', '0xABC')).toEqual({ id: 'b', bind: '127.0.0.3' });
    expect(clientEgress(plan, 'aster', '0xdef')).toBe(egressOf(plan, 'aster', '0xdef'));
  });

  it('is the plan’s first for a client of no account', () => {
    expect(clientEgress(plan, 'paradex', '')).toEqual({ id: 'a', bind: '127.0.0.2' });
    expect(publicEgress(plan)).toBe(plan.egresses[0]);
  });
});
