import { readFileSync } from 'node:fs';
import {
  budgetTermsOf,
  type BudgetTerms,
  FLAT_REQUEST_COSTS,
  VENUE_IDS,
  type VenueConfig,
  type VenueId,
  type VenueRegistry,
} from '@sts/domain';
import defaults from './venues.json';
import { ConfigError } from './load-config';
import { parseRateLimitPools, type RawRateLimitPool } from './rate-limit-pools';

interface RawVenueEntry {
  mode?: string;
  maker_cap?: number;
  cap_group?: string;
  rate_limit_per_s?: number;
  min_trade_budget?: number;
  min_ip_share_per_min?: number;
  shared_account_limit?: boolean;
  hedge_timeout_ms?: number;
  endpoint?: string;
  rate_limits?: RawRateLimitPool[];
}

const positiveInt = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0;

function toVenueConfig(id: VenueId, raw: RawVenueEntry, problems: string[]): VenueConfig {
  const check = (ok: boolean, text: string): void => {
    if (!ok) {
      problems.push(`venue ${id}: ${text}`);
    }
  };
  check(raw.mode === 'paper' || raw.mode === 'live', 'mode must be paper or live');
  check(positiveInt(raw.maker_cap), 'maker_cap must be a positive integer');
  check(typeof raw.cap_group === 'string' && raw.cap_group.length > 0, 'cap_group is required');
  check(positiveInt(raw.rate_limit_per_s), 'rate_limit_per_s must be a positive integer');
  check(positiveInt(raw.min_trade_budget), 'min_trade_budget must be a positive integer');
  check(typeof raw.shared_account_limit === 'boolean', 'shared_account_limit must be boolean');
  check(positiveInt(raw.hedge_timeout_ms), 'hedge_timeout_ms must be a positive integer');
  const budget = budgetOf(raw, (text) => check(false, text));
  const min = raw.min_trade_budget ?? 0;
  check(
    min <= budget.rateLimitPerS,
    `min_trade_budget cannot exceed the account's budget (${budget.rateLimitPerS} tokens/s)`,
  );
  const minIp = raw.min_ip_share_per_min ?? min * 60;
  check(
    raw.min_ip_share_per_min === undefined || positiveInt(raw.min_ip_share_per_min),
    'min_ip_share_per_min must be a positive integer',
  );
  check(
    budget.ipRateLimitPerS === null || minIp <= budget.ipRateLimitPerS * 60,
    `the per-IP minimum (${minIp} tokens a minute) cannot exceed the venue's per-IP limit ` +
      `(${budget.ipRateLimitPerS} tokens/s)`,
  );
  return {
    id,
    mode: raw.mode as VenueConfig['mode'],
    makerCap: raw.maker_cap as number,
    capGroup: raw.cap_group as string,
    rateLimitPerS: budget.rateLimitPerS,
    ipRateLimitPerS: budget.ipRateLimitPerS,
    requestCosts: budget.requestCosts,
    rateLimits: budget.rateLimits,
    minTradeBudget: raw.min_trade_budget as number,
    minIpSharePerMin: minIp,
    // A live venue's published limits count every request of the account or
    // its IP, hedges included: a hedge there holds budget like a maker.
    sharedAccountLimit: raw.mode === 'live' || (raw.shared_account_limit as boolean),
    hedgeTimeoutMs: raw.hedge_timeout_ms as number,
    endpoint: raw.endpoint,
  };
}

type VenueBudget = Pick<
  VenueConfig,
  'rateLimitPerS' | 'ipRateLimitPerS' | 'requestCosts' | 'rateLimits'
>;

/**
 * What the service may spend on a venue. Paper: `rate_limit_per_s` requests
 * a second per account, every request one token. Live: the venue's published
 * limits (`rate_limits`), as tokens by `budgetTermsOf`, the account's share
 * capped by `rate_limit_per_s` (an operator may keep some of it back).
 */
function budgetOf(raw: RawVenueEntry, problem: (text: string) => void): VenueBudget {
  const configured = raw.rate_limit_per_s ?? 0;
  if (raw.mode !== 'live') {
    return {
      rateLimitPerS: configured,
      ipRateLimitPerS: null,
      requestCosts: FLAT_REQUEST_COSTS,
      rateLimits: [],
    };
  }
  const pools = parseRateLimitPools(raw.rate_limits, problem);
  let terms: BudgetTerms | undefined;
  try {
    terms = budgetTermsOf(pools);
  } catch (error) {
    problem(`a live venue needs rate_limits that count placements (${(error as Error).message})`);
  }
  const accountPerS = Math.min(configured, terms?.accountPerS ?? configured);
  return {
    rateLimitPerS: accountPerS,
    ipRateLimitPerS: terms?.ipPerS ?? null,
    requestCosts: terms?.costs ?? FLAT_REQUEST_COSTS,
    rateLimits: pools,
  };
}

const ENV_FIELDS: Record<string, keyof RawVenueEntry> = {
  MODE: 'mode',
  MAKER_CAP: 'maker_cap',
  CAP_GROUP: 'cap_group',
  RATE_LIMIT_PER_S: 'rate_limit_per_s',
  MIN_TRADE_BUDGET: 'min_trade_budget',
  MIN_IP_SHARE_PER_MIN: 'min_ip_share_per_min',
  SHARED_ACCOUNT_LIMIT: 'shared_account_limit',
  HEDGE_TIMEOUT_MS: 'hedge_timeout_ms',
  ENDPOINT: 'endpoint',
};

function parseEnvValue(field: keyof RawVenueEntry, text: string): unknown {
  if (field === 'mode' || field === 'cap_group' || field === 'endpoint') {
    return text;
  }
  if (field === 'shared_account_limit') {
    return text === 'true';
  }
  return /^\d+$/.test(text) ? Number(text) : text;
}

/**
 * The venue registry: the checked-in `venues.json`, then a JSON file named by
 * `VENUE_REGISTRY_FILE`, then `VENUE_<ID>_<FIELD>` variables
 * (e.g. `VENUE_ASTER_MAKER_CAP=2`, `VENUE_LIGHTER_MODE=live`), each overriding
 * the one before field by field. Validated as a whole; any problem stops boot.
 */
export function loadVenueRegistry(
  env: Record<string, string | undefined> = process.env,
): VenueRegistry {
  const layers: Array<Partial<Record<string, RawVenueEntry>>> = [
    defaults as Record<string, RawVenueEntry>,
  ];
  if (env['VENUE_REGISTRY_FILE']) {
    layers.push(JSON.parse(readFileSync(env['VENUE_REGISTRY_FILE'], 'utf8')));
  }
  const problems: string[] = [];
  const registry = {} as Record<VenueId, VenueConfig>;
  for (const id of VENUE_IDS) {
    const raw: RawVenueEntry = Object.assign({}, ...layers.map((layer) => layer[id] ?? {}));
    for (const [suffix, field] of Object.entries(ENV_FIELDS)) {
      const text = env[`VENUE_${id.toUpperCase()}_${suffix}`];
      if (text !== undefined && text !== '') {
        (raw as Record<string, unknown>)[field] = parseEnvValue(field, text);
      }
    }
    registry[id] = toVenueConfig(id, raw, problems);
  }
  if (problems.length > 0) {
    throw new ConfigError(problems);
  }
  return Object.freeze(registry);
}
