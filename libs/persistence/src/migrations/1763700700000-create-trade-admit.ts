import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The live statuses when this migration was written (LIVE_STATUS_SQL). */
const LIVE = `('pending', 'validating', 'active', 'paused', 'recovering')`;

/**
 * The gateway's create admits a trade under a lock of its (maker wallet, cap
 * group), in the transaction the trade row then commits in: the lock, whether
 * the idempotency key already made a trade, which of the legs' (exchange,
 * wallet) have active credentials on a wallet of the user (those wallet rows
 * share-locked until commit, so an unlink cannot race the create) and how many
 * live trades the maker wallet has in the cap group. Sent as statements, these
 * were parsed and planned on every create (a third of Postgres' CPU per create
 * in the gateway bench); as a function, its plans are kept by the session.
 */
export class CreateTradeAdmit1763700700000 implements MigrationInterface {
  name = 'CreateTradeAdmit1763700700000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION create_trade_admit(
        p_user text, p_idempotency_key text, p_cap_lock text,
        p_long_exchange text, p_long_wallet text, p_short_exchange text, p_short_wallet text,
        p_maker_wallet text, p_cap_group text,
        OUT replayed boolean, OUT linked text[], OUT live integer
      ) LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext(p_cap_lock));
        replayed := EXISTS (SELECT 1 FROM trades
          WHERE user_id = p_user AND idempotency_key = p_idempotency_key);
        SELECT coalesce(array_agg(held.leg), '{}') INTO linked FROM (
          SELECT c.exchange || ' ' || c.wallet_addr AS leg FROM exchange_credentials c
            JOIN wallets w ON w.address = c.wallet_addr AND w.user_id = p_user
            WHERE c.user_id = p_user AND c.status = 'active'
              AND ((c.exchange = p_long_exchange AND c.wallet_addr = p_long_wallet)
                OR (c.exchange = p_short_exchange AND c.wallet_addr = p_short_wallet))
            FOR SHARE OF w
        ) held;
        SELECT count(*)::int INTO live FROM trades
          WHERE maker_wallet = p_maker_wallet AND cap_group = p_cap_group
            AND status IN ${LIVE};
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      'DROP FUNCTION create_trade_admit(text, text, text, text, text, text, text, text, text)',
    );
  }
}
