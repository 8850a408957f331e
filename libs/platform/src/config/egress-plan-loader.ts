import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { type Egress, type EgressPlan, SINGLE_EGRESS, VENUE_IDS } from '@sts/domain';
import { withoutZone } from './egress-binds';
import { ConfigError } from './load-config';

interface RawEgressPlan {
  egresses?: Array<{ id?: unknown; bind?: unknown }>;
  accounts?: Record<string, unknown>;
}

const EGRESS_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;

/**
 * The deployment's egress plan: the JSON of `EGRESS_PLAN`, or of the file
 * named by `EGRESS_PLAN_FILE`; neither: one egress, the host's default
 * address. Shape: `{"egresses": [{"id": "a", "bind": "203.0.113.10"}, ...],
 * "accounts": {"hyperliquid:0xabc": "a", "0xdef": "b"}}`. Every service that
 * spends or divides a venue's per-IP limit (budget, worker, gateway) reads the
 * same plan; a pin naming an unknown egress or venue, a duplicate id or a
 * bind that is not an IP address stops boot.
 */
export function loadEgressPlan(env: Record<string, string | undefined> = process.env): EgressPlan {
  const inline = env['EGRESS_PLAN'];
  const file = env['EGRESS_PLAN_FILE'];
  if (!inline && !file) {
    return SINGLE_EGRESS;
  }
  let raw: RawEgressPlan;
  try {
    raw = JSON.parse(inline || readFileSync(file as string, 'utf8')) as RawEgressPlan;
  } catch (error) {
    throw new ConfigError([`EGRESS_PLAN: not readable JSON (${(error as Error).message})`]);
  }
  return parseEgressPlan(raw);
}

/** `raw` checked whole: every problem is listed, none is half-applied. */
export function parseEgressPlan(raw: RawEgressPlan): EgressPlan {
  const problems: string[] = [];
  const egresses = parseEgresses(raw.egresses, problems);
  problems.push(...sharedAddresses(egresses));
  const known = new Set(egresses.map((egress) => egress.id));
  const pins = new Map<string, string>();
  for (const [account, egress] of Object.entries(raw.accounts ?? {})) {
    const venue = account.includes(':') ? account.slice(0, account.indexOf(':')) : undefined;
    if (venue !== undefined && !(VENUE_IDS as readonly string[]).includes(venue)) {
      problems.push(`EGRESS_PLAN: account "${account}" names venue "${venue}", which is unknown`);
    }
    if (typeof egress !== 'string' || !known.has(egress)) {
      problems.push(
        `EGRESS_PLAN: account "${account}" names egress ${JSON.stringify(egress)}, which is not in egresses`,
      );
    }
    pins.set(account.toLowerCase(), String(egress));
  }
  if (problems.length > 0) {
    throw new ConfigError(problems);
  }
  return Object.freeze({ egresses: Object.freeze(egresses), pins });
}

function parseEgresses(raw: RawEgressPlan['egresses'], problems: string[]): Egress[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push('EGRESS_PLAN: egresses must list at least one egress');
    return [];
  }
  const seen = new Set<string>();
  return raw.map((entry, index) => {
    const id = typeof entry?.id === 'string' ? entry.id : '';
    if (!EGRESS_ID.test(id)) {
      problems.push(`EGRESS_PLAN: egresses[${index}].id must match ${EGRESS_ID.source}`);
    } else if (seen.has(id)) {
      problems.push(`EGRESS_PLAN: egress "${id}" is listed twice`);
    }
    seen.add(id);
    if (entry?.bind !== undefined && (typeof entry.bind !== 'string' || isIP(entry.bind) === 0)) {
      problems.push(`EGRESS_PLAN: egress "${id}" bind must be an IP address`);
    }
    return Object.freeze(
      typeof entry?.bind === 'string' ? { id, bind: entry.bind } : { id },
    ) as Egress;
  });
}

/** Where an egress leaves from as the venue sees it: its bind, or the host's default address. */
function addressOf(egress: Egress): string {
  const bind = egress.bind;
  if (bind === undefined || bind === '0.0.0.0' || bind === '::') {
    return "the host's default address";
  }
  // One spelling per IPv6 address (`2001:DB8:0::10` is `2001:db8::10`).
  return isIP(bind) === 6 ? new URL(`http://[${withoutZone(bind)}]`).hostname.slice(1, -1) : bind;
}

/**
 * Two egresses that leave from one address are one address to the venue,
 * whose per-IP limit counts them together, while the budget would divide
 * the limit once for each: twice what the venue accepts. Refused, as is
 * more than one egress without a bind (each leaves from the default route).
 */
function sharedAddresses(egresses: readonly Egress[]): string[] {
  const byAddress = new Map<string, string[]>();
  for (const egress of egresses) {
    const address = addressOf(egress);
    byAddress.set(address, [...(byAddress.get(address) ?? []), egress.id]);
  }
  return [...byAddress.entries()]
    .filter(([, ids]) => ids.length > 1)
    .map(
      ([address, ids]) =>
        `EGRESS_PLAN: egresses ${ids.map((id) => `"${id}"`).join(', ')} all leave from ${address}: the venue counts them as one address`,
    );
}
