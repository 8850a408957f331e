import { randomUUID } from 'node:crypto';
import type { BudgetClient, BudgetSharesChanged, TradeBudget } from '@sts/budget-client';
import type { BudgetAccount } from '@sts/contracts';
import type { VenueRegistry } from '@sts/domain';
import { loadVenueRegistry, type NatsConnection } from '@sts/platform';
import type { TradeTable } from './budget-fixtures';
import type { ShareLedger } from './share-ledger';

const VENUE_ENV = {
  VENUE_HYPERLIQUID_MODE: 'live',
  VENUE_HYPERLIQUID_MIN_TRADE_BUDGET: '4',
  VENUE_HYPERLIQUID_SHARED_ACCOUNT_LIMIT: 'true',
  VENUE_PARADEX_RATE_LIMIT_PER_S: '30',
  VENUE_PARADEX_MIN_TRADE_BUDGET: '2',
  VENUE_PARADEX_SHARED_ACCOUNT_LIMIT: 'false',
  VENUE_ASTER_SHARED_ACCOUNT_LIMIT: 'false',
};

/** Hyperliquid's terms in these specs: per account, and the per-IP limit every account shares. */
export const ACCOUNT_LIMIT = 20;
export const IP_LIMIT = 24;
export const MIN_TRADE_BUDGET = 4;

/**
 * The venue registry with hyperliquid live, on explicit terms so the specs do
 * not move when venues.json is tuned: 20 tokens/s per account, `ipLimit` for
 * all its accounts together, min 4; hedging there holds a share too.
 */
export function ipLimitedVenues(ipLimit: number | null = IP_LIMIT): VenueRegistry {
  const loaded = loadVenueRegistry(VENUE_ENV);
  if (loaded.hyperliquid.mode !== 'live' || loaded.hyperliquid.ipRateLimitPerS === null) {
    throw new Error('a live hyperliquid carries a per-IP limit in the registry');
  }
  return Object.freeze({
    ...loaded,
    hyperliquid: {
      ...loaded.hyperliquid,
      rateLimitPerS: ACCOUNT_LIMIT,
      ipRateLimitPerS: ipLimit,
      minTradeBudget: MIN_TRADE_BUDGET,
      minIpSharePerMin: MIN_TRADE_BUDGET * 60,
    },
  });
}

/** Creates trades as the gateway does (reserve, then the row) and ends them all after a test. */
export class TradeDesk {
  private readonly live: string[] = [];

  constructor(
    private readonly client: BudgetClient,
    private readonly trades: TradeTable,
  ) {}

  async create(maker: BudgetAccount, hedge: BudgetAccount): Promise<TradeBudget> {
    const id = randomUUID();
    const grant = await this.client.reserve({ tradeId: id, maker, hedge });
    await this.insertRow(grant, maker, hedge);
    return grant;
  }

  /** The row of a trade reserved another way (a batch). */
  async insertRow(grant: TradeBudget, maker: BudgetAccount, hedge: BudgetAccount): Promise<void> {
    await this.trades.insert({
      id: grant.tradeId,
      maker,
      hedge,
      rateBudget: grant.rateBudget,
      hedgeRateBudget: grant.hedgeRateBudget,
      budgetVersion: grant.maker.version,
    });
    this.live.push(grant.tradeId);
  }

  async end(tradeId: string): Promise<void> {
    await this.trades.setStatus(tradeId, 'canceled');
    await this.client.release(tradeId, 'canceled');
    this.live.splice(this.live.indexOf(tradeId), 1);
  }

  /** Every trade still live ends: the venue is held by nobody for the next test. */
  async endAll(): Promise<void> {
    for (const tradeId of [...this.live]) {
      await this.end(tradeId);
    }
  }
}

/**
 * The budget.shares_changed messages `operation` caused, in the order they
 * were published: the service publishes before it answers, so once a probe's
 * answer is back every message of the operation has arrived.
 */
export async function messagesOf(
  ledger: ShareLedger,
  client: BudgetClient,
  nc: NatsConnection,
  probe: BudgetAccount,
  operation: () => Promise<unknown>,
): Promise<BudgetSharesChanged[]> {
  const from = ledger.messages.length;
  await operation();
  await client.account(probe);
  await nc.flush();
  return ledger.messages.slice(from);
}
