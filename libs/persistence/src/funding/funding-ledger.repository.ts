import type { EntityManager } from 'typeorm';
import { queryRows } from '../query-rows';

/** One venue account of a user. */
export interface FundingAccount {
  userId: string;
  exchange: string;
  /** Lower-case, as trades name it. */
  wallet: string;
}

/** One settlement as the venue listed it, with the part each of the user's trades earned. */
export interface FundingToRecord {
  symbol: string;
  market: string;
  paidAt: Date;
  /** Signed decimal text: positive received, negative paid. */
  amount: string;
  asset: string;
  rate: string | null;
  size: string | null;
  shares: ReadonlyArray<{ tradeId: string; amount: string }>;
}

/** A trade's part of one settlement (what results add up). */
export interface TradeFundingRow {
  tradeId: string;
  /** The trade's market. */
  market: string;
  exchange: string;
  paidAtMs: number;
  /** Signed decimal text. */
  amount: string;
}

/**
 * The only SQL on `funding_payments`, `trade_funding` and `funding_reads`
 * (migration FundingPayments1763701300000): one ledger of the venues'
 * funding per user, written as one read of an account's history.
 */
export class FundingLedgerRepository {
  constructor(private readonly manager: EntityManager) {}

  /** How far the account's funding history has been read; null: never. */
  async readUntil(account: FundingAccount): Promise<Date | null> {
    const rows = await queryRows<{ readUntil: Date }>(
      this.manager,
      `SELECT read_until AS "readUntil" FROM funding_reads
       WHERE user_id = $1 AND exchange = $2 AND wallet = $3`,
      [account.userId, account.exchange, account.wallet],
    );
    return rows[0]?.readUntil ?? null;
  }

  /**
   * Stores one read of the account's history: each settlement once (a
   * settlement stored before, by an earlier or a concurrent read, keeps its
   * first shares), and moves the account's read mark forward, never back.
   */
  async record(
    account: FundingAccount,
    payments: readonly FundingToRecord[],
    readUntil: Date,
  ): Promise<void> {
    await this.manager.transaction(async (tx) => {
      for (const payment of payments) {
        await insertPayment(tx, account, payment);
      }
      await tx.query(
        `INSERT INTO funding_reads (user_id, exchange, wallet, read_until) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, exchange, wallet)
         DO UPDATE SET read_until = GREATEST(funding_reads.read_until, EXCLUDED.read_until)`,
        [account.userId, account.exchange, account.wallet, readUntil],
      );
    });
  }

  /** The user's trades' parts of the settlements paid in [fromMs, toMs). */
  async tradeFundingIn(userId: string, fromMs: number, toMs: number): Promise<TradeFundingRow[]> {
    const rows = await queryRows<Omit<TradeFundingRow, 'paidAtMs'> & { paidAt: Date }>(
      this.manager,
      `SELECT f.trade_id AS "tradeId", t.market, p.exchange, p.paid_at AS "paidAt",
         f.amount::text AS amount
       FROM funding_payments p
       JOIN trade_funding f ON f.payment_id = p.id
       JOIN trades t ON t.id = f.trade_id AND t.user_id = p.user_id
       WHERE p.user_id = $1 AND p.paid_at >= to_timestamp($2 / 1000.0)
         AND p.paid_at < to_timestamp($3 / 1000.0)
       ORDER BY p.paid_at, p.id, f.trade_id`,
      [userId, fromMs, toMs],
    );
    return rows.map(({ paidAt, ...row }) => ({ ...row, paidAtMs: paidAt.getTime() }));
  }
}

async function insertPayment(
  tx: EntityManager,
  account: FundingAccount,
  payment: FundingToRecord,
): Promise<void> {
  const inserted = await queryRows<{ id: string }>(
    tx,
    `INSERT INTO funding_payments
       (user_id, exchange, wallet, symbol, market, paid_at, amount, asset, rate, size)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT ON CONSTRAINT funding_payments_once DO NOTHING
     RETURNING id`,
    [
      account.userId,
      account.exchange,
      account.wallet,
      payment.symbol,
      payment.market,
      payment.paidAt,
      payment.amount,
      payment.asset,
      payment.rate,
      payment.size,
    ],
  );
  const id = inserted[0]?.id;
  if (id === undefined || payment.shares.length === 0) {
    return;
  }
  await tx.query(
    `INSERT INTO trade_funding (payment_id, trade_id, amount)
     SELECT $1, share.trade_id, share.amount
     FROM unnest($2::uuid[], $3::numeric[]) AS share(trade_id, amount)`,
    [id, payment.shares.map((share) => share.tradeId), payment.shares.map((share) => share.amount)],
  );
}
