import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { formatDecimal } from '@sts/domain';
import {
  FundingLedgerRepository,
  TradeEventRepository,
  TradeRepository,
  type FundingAccount,
  type FundingToRecord,
} from '@sts/persistence';
import type { VenueFundingPayment } from '@sts/venues';
import { callerAccounts } from '../venue-accounts/caller-accounts';
import { VenueAccountReads } from '../venue-accounts/venue-account-reads';
import { fundingShares } from './funding-shares';
import { resultFills, type ResultFill } from './result-fills';

/** An account whose funding history could not be read now. */
export interface FundingUnread {
  exchange: string;
  wallet: string;
  error: string;
}

/** A replica reads an account's history at most once in this long, whoever asks. */
export const FUNDING_READ_EVERY_MS = 30_000;
/** A venue that has not answered by then is reported, not waited for. */
export const FUNDING_READ_TIMEOUT_MS = 5_000;
/**
 * How late a venue may list a settlement: each read starts this far before
 * the last one's time, and a settlement read twice is stored once.
 */
export const LATE_LISTING_MS = 10 * 60_000;

/**
 * Reads the venues' funding histories of a user's accounts (every account
 * their trades filled on) from where the last read stopped, and stores each
 * settlement with the shares of the trades whose positions earned it
 * (fundingShares). Each read is paid from the account's rate budget, on the
 * account's kept reader, as the positions read is (VenueAccountReads).
 */
@Injectable()
export class FundingCollector {
  private readonly recent = new Map<
    string,
    { untilMs: number; read: Promise<FundingUnread | null> }
  >();

  constructor(
    private readonly dataSource: DataSource,
    private readonly reads: VenueAccountReads,
  ) {}

  /** Brings the user's funding up to date; the accounts that could not be read. */
  async collect(userId: string): Promise<FundingUnread[]> {
    const filled = await new TradeRepository(this.dataSource.manager).impliedPositionsOf(userId);
    // The accounts the user's fills touched: one that never filled earned no trade funding.
    const accounts = callerAccounts([], filled).map((account) => ({ userId, ...account }));
    const reads = await Promise.all(accounts.map((account) => this.readOnce(account)));
    return reads.filter((unread): unread is FundingUnread => unread !== null);
  }

  private readOnce(account: FundingAccount): Promise<FundingUnread | null> {
    const key = `${account.userId}\u0000${account.exchange}\u0000${account.wallet}`;
    const nowMs = Date.now();
    const recent = this.recent.get(key);
    if (recent && recent.untilMs > nowMs) {
      return recent.read;
    }
    for (const [other, entry] of this.recent) {
      if (entry.untilMs <= nowMs) {
        this.recent.delete(other);
      }
    }
    const read = this.read(account).catch((error: unknown) => unread(account, messageOf(error)));
    this.recent.set(key, { untilMs: nowMs + FUNDING_READ_EVERY_MS, read });
    return read;
  }

  private async read(account: FundingAccount): Promise<FundingUnread | null> {
    const manager = this.dataSource.manager;
    const ledger = new FundingLedgerRepository(manager);
    const logs = await new TradeEventRepository(manager).fillLogsOnAccount(
      account.userId,
      account.exchange,
      account.wallet,
    );
    const fills = logs
      .flatMap(resultFills)
      .filter((fill) => fill.exchange === account.exchange && fill.wallet === account.wallet);
    const first = fills[0];
    if (!first) {
      return null;
    }
    const readUntil = await ledger.readUntil(account);
    const sinceMs = readUntil === null ? first.timeMs : readUntil.getTime();
    const startedMs = Date.now();
    const markets = [...new Set(fills.map((fill) => fill.market))];
    const payments = await this.venuePayments(account, sinceMs, markets);
    if (typeof payments === 'string') {
      return unread(account, payments);
    }
    const recorded = payments.map((payment) => toRecord(payment, fills));
    await ledger.record(
      account,
      recorded,
      new Date(Math.max(sinceMs, startedMs - LATE_LISTING_MS)),
    );
    return null;
  }

  /** The account's settlements since `sinceMs` (VenueAccountReads: budgeted, timed out), or why not. */
  private async venuePayments(
    account: FundingAccount,
    sinceMs: number,
    markets: readonly string[],
  ): Promise<VenueFundingPayment[] | string> {
    const read = await this.reads.read(account.userId, account, {
      what: 'funding',
      read: (client) => client.fundingPayments(sinceMs, markets),
    });
    return read.ok ? read.value : read.error;
  }
}

function toRecord(payment: VenueFundingPayment, fills: readonly ResultFill[]): FundingToRecord {
  const amount = new Big(payment.amount);
  const shares = fundingShares(
    {
      timeMs: payment.timeMs,
      amount,
      size: payment.size === undefined ? null : new Big(payment.size),
    },
    fills.filter((fill) => fill.market === payment.market),
  );
  return {
    symbol: payment.symbol,
    market: payment.market,
    paidAt: new Date(payment.timeMs),
    amount: payment.amount,
    asset: payment.asset,
    rate: payment.rate ?? null,
    size: payment.size ?? null,
    shares: shares.map((share) => ({
      tradeId: share.tradeId,
      amount: formatDecimal(share.amount),
    })),
  };
}

const unread = (account: FundingAccount, error: string): FundingUnread => ({
  exchange: account.exchange,
  wallet: account.wallet,
  error,
});

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
