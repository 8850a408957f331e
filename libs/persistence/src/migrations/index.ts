import { Foundation1763700000000 } from './1763700000000-foundation';
import { Trades1763700100000 } from './1763700100000-trades';
import { AppendId1763700200000 } from './1763700200000-append-id';
import { HotLeases1763700300000 } from './1763700300000-hot-leases';
import { ChangeNotices1763700400000 } from './1763700400000-change-notices';
import { BudgetRowVersions1763700500000 } from './1763700500000-budget-row-versions';
import { BudgetAccountShares1763700600000 } from './1763700600000-budget-account-shares';
import { CreateTradeAdmit1763700700000 } from './1763700700000-create-trade-admit';
import { AppendOnlyExecutionLog1763700800000 } from './1763700800000-append-only-execution-log';
import { RiskLimits1763700900000 } from './1763700900000-risk-limits';
import { TradeResiduals1763701000000 } from './1763701000000-trade-residuals';
import { AccountsWithoutWallet1763701100000 } from './1763701100000-accounts-without-wallet';
import { Webhooks1763701200000 } from './1763701200000-webhooks';
import { FundingPayments1763701300000 } from './1763701300000-funding-payments';

/** Every migration, in order. A new migration is a new timestamped file listed here. */
export const MIGRATIONS = [
  Foundation1763700000000,
  Trades1763700100000,
  AppendId1763700200000,
  HotLeases1763700300000,
  ChangeNotices1763700400000,
  BudgetRowVersions1763700500000,
  BudgetAccountShares1763700600000,
  CreateTradeAdmit1763700700000,
  AppendOnlyExecutionLog1763700800000,
  RiskLimits1763700900000,
  TradeResiduals1763701000000,
  AccountsWithoutWallet1763701100000,
  Webhooks1763701200000,
  FundingPayments1763701300000,
];
