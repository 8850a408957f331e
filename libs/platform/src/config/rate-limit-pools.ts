import { isRequestKind, type RateLimitPool, type RequestKind } from '@sts/domain';

/** A published limit as the venue registry writes it (`docs/venues/rate-limits.md`). */
export interface RawRateLimitPool {
  id?: unknown;
  scope?: unknown;
  window_s?: unknown;
  capacity?: unknown;
  weights?: unknown;
}

const positive = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

/** Reads one pool; says what is wrong with it through `problem` and answers undefined then. */
function parsePool(
  raw: RawRateLimitPool,
  problem: (text: string) => void,
): RateLimitPool | undefined {
  const name = typeof raw.id === 'string' && raw.id.length > 0 ? raw.id : undefined;
  const where = `rate_limits ${name ?? '(unnamed)'}`;
  const faults: string[] = [];
  if (!name) faults.push('id is required');
  if (raw.scope !== 'ip' && raw.scope !== 'account') faults.push('scope must be ip or account');
  if (!positive(raw.window_s)) faults.push('window_s must be positive');
  if (!positive(raw.capacity)) faults.push('capacity must be positive');
  const weights: Partial<Record<RequestKind, number>> = {};
  const entries = raw.weights && typeof raw.weights === 'object' ? Object.entries(raw.weights) : [];
  for (const [kind, weight] of entries) {
    if (!isRequestKind(kind)) faults.push(`weights: unknown request kind ${kind}`);
    else if (!positive(weight)) faults.push(`weights: ${kind} must be positive`);
    else weights[kind] = weight;
  }
  if (Object.keys(weights).length === 0) faults.push('weights must name at least one request kind');
  for (const fault of faults) {
    problem(`${where}: ${fault}`);
  }
  return faults.length > 0
    ? undefined
    : {
        id: name!,
        scope: raw.scope as RateLimitPool['scope'],
        windowS: raw.window_s as number,
        capacity: raw.capacity as number,
        weights: Object.freeze(weights),
      };
}

/** A venue's `rate_limits`, validated; problems are reported, never thrown. */
export function parseRateLimitPools(
  raw: unknown,
  problem: (text: string) => void,
): RateLimitPool[] {
  if (raw === undefined) {
    return [];
  }
  if (!Array.isArray(raw)) {
    problem('rate_limits must be a list');
    return [];
  }
  const pools = raw.map((entry: RawRateLimitPool) => parsePool(entry ?? {}, problem));
  return pools.every((pool) => pool !== undefined) ? (pools as RateLimitPool[]) : [];
}
