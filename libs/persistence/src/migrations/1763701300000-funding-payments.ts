import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Funding (issue 58): what each venue paid or charged a user's account per
 * market and settlement, and which of the user's trades it belongs to.
 *
 * `funding_payments`: one row per settlement of one market on one account,
 * as the venue's funding history lists it (a venue settles a market once a
 * time, so account, symbol and time name it: a history read twice stores
 * it once). `amount` is signed: positive received, negative paid.
 *
 * `trade_funding`: the part of a payment each trade earned, by the position
 * its fills held on that account and market at the settlement; a position
 * the user holds beyond their trades' (a manual one) keeps the rest.
 *
 * `funding_reads`: how far each account's history has been read, so the
 * next read asks the venue only for what is new.
 */
export class FundingPayments1763701300000 implements MigrationInterface {
  name = 'FundingPayments1763701300000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE funding_payments (
        id bigserial PRIMARY KEY,
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        exchange text NOT NULL,
        wallet text NOT NULL,
        symbol text NOT NULL,
        market text NOT NULL,
        paid_at timestamptz NOT NULL,
        amount numeric NOT NULL,
        asset text NOT NULL,
        rate numeric,
        size numeric,
        read_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT funding_payments_once UNIQUE (user_id, exchange, wallet, symbol, paid_at)
      )`);
    await db.query(
      `CREATE INDEX funding_payments_user_time_idx ON funding_payments (user_id, paid_at)`,
    );
    await db.query(`
      CREATE TABLE trade_funding (
        payment_id bigint NOT NULL REFERENCES funding_payments(id) ON DELETE CASCADE,
        trade_id uuid NOT NULL REFERENCES trades(id) ON DELETE CASCADE,
        amount numeric NOT NULL,
        PRIMARY KEY (payment_id, trade_id)
      )`);
    await db.query(`CREATE INDEX trade_funding_trade_idx ON trade_funding (trade_id)`);
    await db.query(`
      CREATE TABLE funding_reads (
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        exchange text NOT NULL,
        wallet text NOT NULL,
        read_until timestamptz NOT NULL,
        PRIMARY KEY (user_id, exchange, wallet)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE funding_reads`);
    await db.query(`DROP TABLE trade_funding`);
    await db.query(`DROP TABLE funding_payments`);
  }
}
