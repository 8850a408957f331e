import { escapeLiteral } from 'pg';
import {
  EXECUTING_TRADE_STATUSES,
  isTradeStatus,
  LIVE_TRADE_STATUSES as LIVE,
  type TradeStatus,
  tradeStatusList,
} from '@sts/domain';

/** The domain's live statuses as a list (`= ANY($1)`, TypeORM's `In(...)`). */
export const LIVE_TRADE_STATUSES: readonly TradeStatus[] = tradeStatusList(LIVE);

/** The domain's executing statuses as a list. */
export const EXECUTING_TRADE_STATUS_LIST: readonly TradeStatus[] =
  tradeStatusList(EXECUTING_TRADE_STATUSES);

/**
 * A set of statuses as a SQL list of literals, `('pending', 'validating')`.
 * Literals, not parameters, where the planner must see the values: the
 * partial indexes of live trades apply only to a query whose predicate
 * matches theirs, which a parameter never proves. Each value is checked to be
 * a status and escaped.
 */
export function sqlStatusList(statuses: ReadonlySet<TradeStatus> | readonly TradeStatus[]): string {
  const list = statuses instanceof Set ? tradeStatusList(statuses) : [...statuses];
  if (list.length === 0) {
    throw new RangeError('an empty status list matches nothing');
  }
  for (const status of list) {
    if (!isTradeStatus(status)) {
      throw new RangeError(`not a trade status: ${String(status)}`);
    }
  }
  return `(${list.map((status) => escapeLiteral(status)).join(', ')})`;
}

/** One status as a SQL literal, `'pending'`: a typed spelling where a list of one is meant. */
export function sqlStatus(status: TradeStatus): string {
  return sqlStatusList([status]).slice(1, -1);
}

/** `('pending', 'validating', 'active', 'paused', 'recovering')`: the live trades' partial indexes. */
export const LIVE_STATUS_SQL = sqlStatusList(LIVE);

/** `('validating', 'active', 'paused', 'recovering')`: trades a worker owns. */
export const EXECUTING_STATUS_SQL = sqlStatusList(EXECUTING_TRADE_STATUSES);
