import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { BudgetSharesChanged } from '@sts/budget-client';
import type { BudgetAccount, BudgetChangeCause, BudgetRole, Envelope } from '@sts/contracts';
import type { VenueId } from '@sts/domain';
import { sleep } from '@sts/platform';

/** Trade rows as the gateway writes them; only the columns the budget service reads matter. */
export class TradeTable {
  private readonly userId = `user-${randomUUID()}`;

  private constructor(private readonly client: Client) {}

  static async open(databaseUrl: string): Promise<TradeTable> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    const table = new TradeTable(client);
    await client.query('INSERT INTO users (id, primary_wallet) VALUES ($1, $2)', [
      table.userId,
      `0x${randomUUID().replace(/-/g, '')}`,
    ]);
    return table;
  }

  async insert(trade: {
    id: string;
    maker: BudgetAccount;
    hedge: BudgetAccount;
    status?: string;
    rateBudget: number;
    hedgeRateBudget?: number | null;
    /** The budget store's version of its grant (0: any account row shows). */
    budgetVersion?: number;
  }): Promise<void> {
    await this.client.query(
      `INSERT INTO trades (id, user_id, market, long_exchange, long_wallet, short_exchange,
         short_wallet, maker_leg, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet,
         cap_group, target_spread, spread_condition, target_size, max_slippage, status,
         rate_budget, hedge_rate_budget, idempotency_key, budget_version, hedge_budget_version)
       VALUES ($1, $2, 'BTC', $3, $4, $5, $6, 'long', $3, $4, $5, $6, $3, '1', 'gte', '0.1',
         '0.001', $7, $8, $9, $10, $11, $11)`,
      [
        trade.id,
        this.userId,
        trade.maker.venue,
        trade.maker.wallet,
        trade.hedge.venue,
        trade.hedge.wallet,
        trade.status ?? 'pending',
        trade.rateBudget,
        trade.hedgeRateBudget ?? null,
        `key-${trade.id}`,
        trade.budgetVersion ?? 0,
      ],
    );
  }

  async setStatus(id: string, status: string): Promise<void> {
    await this.client.query('UPDATE trades SET status = $2 WHERE id = $1', [id, status]);
  }

  /** A trade's budgets as the API shows them (the `trade_budgets` view). */
  async budgets(id: string): Promise<{ rate_budget: number; hedge_rate_budget: number | null }> {
    const result = await this.client.query(
      'SELECT rate_budget, hedge_rate_budget FROM trade_budgets WHERE trade_id = $1',
      [id],
    );
    return result.rows[0];
  }

  /** What the trade's own row holds (a finished trade's budgets are frozen there). */
  async rowBudgets(id: string): Promise<{ rate_budget: number; hedge_rate_budget: number | null }> {
    const result = await this.client.query(
      'SELECT rate_budget, hedge_rate_budget FROM trades WHERE id = $1',
      [id],
    );
    return result.rows[0];
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

export const account = (venue: VenueId, wallet = randomWallet()): BudgetAccount => ({
  venue,
  wallet,
});

export const randomWallet = (): string => `0x${randomUUID().replace(/-/g, '').slice(0, 20)}`;

/** Polls until `check` stops throwing, or throws its last error. */
export async function eventually(
  check: () => Promise<void> | void,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw error;
      }
      await sleep(25);
    }
  }
}

/** One trade's share as a listener draws it from an account's message. */
export interface TradeShareChange extends BudgetAccount {
  trade_id: string;
  role: BudgetRole;
  share: number;
  version: number;
  cause: BudgetChangeCause;
}

interface LedgerAccount {
  venue: VenueId;
  version: number;
  share: number;
  /** `trade_id|role` of every trade the messages say holds the account. */
  holders: Set<string>;
  /** How many hold it, as its last message said. */
  holderCount: number;
}

/**
 * Follows every budget.shares_changed message the way a fleet of workers
 * would: it learns an account's holders only from the messages (`joined`,
 * `left`), applies each message's share to every holder it knows, and checks
 * after each one that no account is divided beyond its limit, nor a venue
 * with a per-IP limit beyond that (summed over all its accounts). `received`
 * holds each message as the per-trade updates a listener draws from it.
 */
export class ShareLedger {
  private readonly accounts = new Map<string, LedgerAccount>();
  private readonly gone = new Set<string>();
  readonly violations: string[] = [];
  readonly messages: BudgetSharesChanged[] = [];
  readonly received: TradeShareChange[] = [];

  constructor(
    private readonly limits: (account: BudgetAccount) => number,
    private readonly venueLimits: (venue: VenueId) => number | null = () => null,
  ) {}

  readonly onChange = (message: Envelope<BudgetSharesChanged>): void => {
    const change = message.payload;
    this.messages.push(change);
    const accountId = `${change.venue}:${change.wallet}`;
    const known = this.accounts.get(accountId) ?? {
      venue: change.venue,
      version: -1,
      share: 0,
      holders: new Set(),
      holderCount: 0,
    };
    if (known.version > change.version) {
      return;
    }
    const base = { venue: change.venue, wallet: change.wallet, version: change.version };
    for (const holder of change.left) {
      known.holders.delete(`${holder.trade_id}|${holder.role}`);
      this.gone.add(`${holder.trade_id}|${holder.role}`);
      this.received.push({ ...base, ...holder, share: 0, cause: change.cause });
    }
    for (const holder of change.joined) {
      known.holders.add(`${holder.trade_id}|${holder.role}`);
    }
    known.version = change.version;
    known.share = change.share;
    known.holderCount = change.holder_count;
    this.accounts.set(accountId, known);
    for (const key of known.holders) {
      const [tradeId, role] = key.split('|') as [string, 'maker' | 'hedge'];
      this.received.push({
        ...base,
        trade_id: tradeId,
        role,
        share: change.share,
        cause: change.cause,
      });
    }
    const limit = this.limits(change);
    const total = this.total(change);
    if (total > limit || change.share * change.holder_count > limit) {
      this.violations.push(
        `${accountId}: ${known.holders.size} known (${change.holder_count} said) x ${change.share} > ${limit} after v${change.version}`,
      );
    }
    this.checkVenue(change.venue, change.version);
  };

  /** A venue with a per-IP limit: every account's share times its holders, summed, within it. */
  private checkVenue(venue: VenueId, version: number): void {
    const limit = this.venueLimits(venue);
    if (limit === null) {
      return;
    }
    let known = 0;
    let said = 0;
    for (const account of this.accounts.values()) {
      if (account.venue === venue) {
        known += account.share * account.holders.size;
        said += account.share * account.holderCount;
      }
    }
    if (known > limit || said > limit) {
      this.violations.push(
        `${venue}: ${known} known (${said} said) > venue limit ${limit} after v${version}`,
      );
    }
  }

  /** The sum over a venue's accounts of share x holders, as the messages tell it. */
  venueTotal(venue: VenueId): number {
    let total = 0;
    for (const account of this.accounts.values()) {
      total += account.venue === venue ? account.share * account.holders.size : 0;
    }
    return total;
  }

  total(account: BudgetAccount): number {
    const known = this.accounts.get(`${account.venue}:${account.wallet}`);
    return known ? known.share * known.holders.size : 0;
  }

  shareOf(tradeId: string, role: 'maker' | 'hedge' = 'maker'): number | undefined {
    const key = `${tradeId}|${role}`;
    for (const known of this.accounts.values()) {
      if (known.holders.has(key)) {
        return known.share;
      }
    }
    return this.gone.has(key) ? 0 : undefined;
  }
}
