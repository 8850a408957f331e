import { ACCOUNT_OPERATIONS } from './operations/account-operations';
import { BALANCE_OPERATIONS } from './operations/balance-operations';
import type { OperationAnswers } from './operations/answers';
import { MARKET_OPERATIONS } from './operations/market-operations';
import { POSITION_OPERATIONS } from './operations/position-operations';
import { QUALITY_OPERATIONS } from './operations/quality-operations';
import { RESULTS_OPERATIONS } from './operations/results-operations';
import { TRADE_OPERATIONS } from './operations/trade-operations';
import { WEBHOOK_OPERATIONS } from './operations/webhook-operations';

export { EVERY_ROUTE, type OperationAnswers, type Success } from './operations/answers';

/** Keyed by `<method> <path>` as the document names them; one file per resource in operations/. */
export const OPERATIONS: Record<string, OperationAnswers> = {
  ...TRADE_OPERATIONS,
  ...MARKET_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...POSITION_OPERATIONS,
  ...BALANCE_OPERATIONS,
  ...QUALITY_OPERATIONS,
  ...RESULTS_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
};
