import { type Egress, type EgressPlan, egressOf } from './egress-plan';

/**
 * The egress of a client that speaks for no account (public books and
 * markets): the plan's first. Public reads have no account to hash, and any
 * egress can serve them; the first is the same in every process that reads
 * the plan, so the fleet's public reads spend one known address's per-IP
 * limit, and an egress added at the end does not move them.
 */
export function publicEgress(plan: EgressPlan): Egress {
  const first = plan.egresses[0];
  if (!first) {
    throw new Error('an egress plan needs at least one egress');
  }
  return first;
}

/**
 * The egress a venue client sends from: its account's (`egressOf`), or the
 * public one when it has no account (an empty wallet: a market-data client).
 */
export function clientEgress(plan: EgressPlan, venue: string, wallet: string): Egress {
  return wallet === '' ? publicEgress(plan) : egressOf(plan, venue, wallet);
}
