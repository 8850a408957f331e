import { createHash } from 'node:crypto';

/**
 * One address the fleet's requests leave from. A venue's per-IP limits count
 * every request from one address, so each egress carries a venue's per-IP
 * capacity of its own. `bind`: the local source address requests to the
 * venues are sent from (an address of the host's own, so nothing sits between
 * a maker fill and its hedge order); absent: the host's default route.
 */
export interface Egress {
  readonly id: string;
  readonly bind?: string;
}

/**
 * The deployment's egress addresses and which venue accounts use each. A pin
 * names an account (`<venue>:<wallet>`) or a wallet on every venue
 * (`<wallet>`); an account without a pin goes by rendezvous hashing over the
 * egresses, so every service that reads the same plan agrees on an account's
 * egress without asking anyone, and adding an egress moves about 1/N of them.
 */
export interface EgressPlan {
  readonly egresses: readonly Egress[];
  /** Pin keys, lower-cased, to egress ids. */
  readonly pins: ReadonlyMap<string, string>;
}

/** Today's deployment: every request from the host's one default address. */
export const SINGLE_EGRESS: EgressPlan = Object.freeze({
  egresses: Object.freeze([Object.freeze({ id: 'default' })]),
  pins: new Map<string, string>(),
});

/** The egress a venue account's requests leave from under `plan`. */
export function egressOf(plan: EgressPlan, venue: string, wallet: string): Egress {
  const account = wallet.toLowerCase();
  const pinned = plan.pins.get(`${venue}:${account}`) ?? plan.pins.get(account);
  if (pinned !== undefined) {
    const egress = plan.egresses.find((candidate) => candidate.id === pinned);
    if (egress) {
      return egress;
    }
  }
  return rendezvous(plan.egresses, `${venue}:${account}`);
}

/** The egress of the highest hash of (egress, account): stable as egresses come and go. */
function rendezvous(egresses: readonly Egress[], account: string): Egress {
  let best = egresses[0];
  let bestScore = '';
  for (const egress of egresses) {
    const score = createHash('sha256').update(`${egress.id}|${account}`).digest('hex');
    if (score > bestScore) {
      best = egress;
      bestScore = score;
    }
  }
  if (!best) {
    throw new Error('an egress plan needs at least one egress');
  }
  return best;
}
