import type { PoolClient, QueryResult } from 'pg';
import type { DataSource } from 'typeorm';
import {
  insertNewTradesSql,
  liveTermsSql,
  postgresPool,
  riskLockSql,
  sqlLiteral as literal,
  type CommittedRow,
  type LiveTermsRow,
  type NewTradeRow,
} from '@sts/persistence';

/** What `create_trade_admit` checks for one create. */
export interface AdmitRequest {
  userId: string;
  idempotencyKey: string;
  capLock: string;
  legs: Array<{ exchange: string; wallet: string }>;
  maker: { wallet: string; capGroup: string };
}

export interface Admission {
  /** Whether this idempotency key already created a trade (read again after the rollback). */
  replayed: boolean;
  /** `<exchange> <wallet>` of each leg with active credentials on a wallet of the user. */
  linked: Set<string>;
  /** Live trades of the maker wallet in the cap group. */
  live: number;
}

export interface AdmitResult {
  /** One per request, in the order given. */
  admissions: Admission[];
  /** The live trades of each user asked for, read under the user's risk lock. */
  liveTerms: Map<string, LiveTermsRow[]>;
}

interface AdmitRow {
  replayed: boolean;
  linked: string[];
  live: number;
}

function admitSql(request: AdmitRequest): string {
  const [long, short] = request.legs;
  const args = [
    request.userId,
    request.idempotencyKey,
    request.capLock,
    long.exchange,
    long.wallet,
    short.exchange,
    short.wallet,
    request.maker.wallet,
    request.maker.capGroup,
  ].map(literal);
  return `SELECT replayed, linked, live FROM create_trade_admit(${args.join(', ')})`;
}

/**
 * A group of creates' transaction in two round trips, whatever its size.
 * Parameters cannot carry several statements in one round trip (the
 * extended protocol takes one), the simple protocol can, so values go in as
 * literals, every one through pg's escapeLiteral (they are validated before,
 * too). Each statement, and each statement of the (volatile) admit function,
 * gets its own snapshot (READ COMMITTED), so the count of live trades is taken
 * after the advisory lock is held, never before it.
 */
export class CreateTradeTransaction {
  /** Set when the connection failed while the create held it between statements. */
  private lost?: Error;
  private readonly onError = (error: Error): void => {
    this.lost = error;
  };

  /**
   * A connection checked out of node-postgres' pool emits 'error' when
   * Postgres goes away while it sits between two statements (the create waits
   * on the budget service in between); nobody else listens then, and an
   * unheard 'error' event ends the process. Heard here, the next statement
   * fails instead (a lost Postgres: 503), and the connection is destroyed.
   */
  private constructor(private readonly client: PoolClient) {
    client.on('error', this.onError);
  }

  /** A connection of the gateway's pool (its Postgres limits apply) for one group of creates. */
  static async open(dataSource: DataSource): Promise<CreateTradeTransaction> {
    return new CreateTradeTransaction(await postgresPool(dataSource).connect());
  }

  /**
   * One round trip: begin; the risk lock of every user of the group, in key
   * order and held until commit (riskLockSql: exclusive for the users in
   * `liveTermsOf`, whose limits count their live trades, shared for the
   * others); then `create_trade_admit` (migration 1763700700000) for each
   * create of the group, in the order given: the lock of the (maker wallet,
   * cap group), then under it the replay, the credentials (wallet rows
   * share-locked until commit, so an unlink cannot race the create) and the
   * count of live maker trades; last, the live trades of each user in
   * `liveTermsOf`. The caller orders the group by cap lock, and every
   * transaction takes its user locks before its cap locks, so two groups
   * never wait on each other in a circle. `lockWaitMs` bounds every lock
   * wait of the transaction (its inserts' too).
   */
  async admit(
    requests: AdmitRequest[],
    lockWaitMs?: number,
    liveTermsOf: string[] = [],
  ): Promise<AdmitResult> {
    // For the whole transaction: a lock held longer than this fails it (SQLSTATE 55P03).
    const lockWait =
      lockWaitMs === undefined ? '' : `SET LOCAL lock_timeout = ${literal(lockWaitMs)};`;
    const users = [...new Set(requests.map((request) => request.userId))].sort();
    const counted = new Set(liveTermsOf);
    const statements = [
      ...users.map((user) => riskLockSql(user, counted.has(user) ? 'exclusive' : 'shared')),
      ...requests.map(admitSql),
      ...liveTermsOf.map((userId) => liveTermsSql(userId)),
    ];
    const results = (await this.client.query(
      `BEGIN; ${lockWait} ${statements.join('; ')}`,
    )) as unknown as QueryResult[];
    // The answers wanted are the last ones: the admits, then the live trades.
    const answers = results.slice(-(requests.length + liveTermsOf.length));
    const admits = answers.slice(0, requests.length) as QueryResult<AdmitRow>[];
    return {
      admissions: admits.map(({ rows: [row] }) => ({
        replayed: row.replayed,
        linked: new Set(row.linked),
        live: row.live,
      })),
      liveTerms: new Map(
        liveTermsOf.map((userId, i) => [
          userId,
          (answers[requests.length + i] as QueryResult<LiveTermsRow>).rows,
        ]),
      ),
    };
  }

  /** One round trip: the trade rows, their start commands in the outbox, commit. */
  async insertAndCommit(trades: NewTradeRow[], outbox: CommittedRow[]): Promise<void> {
    const commands = outbox.map(
      (command) =>
        `(${literal(command.subject)}, ${literal(command.message_id)}, ${literal(JSON.stringify(command.payload))})`,
    );
    await this.client.query(`
      ${insertNewTradesSql(trades)};
      INSERT INTO outbox (subject, message_id, payload) VALUES ${commands.join(', ')}
        ON CONFLICT (message_id) DO NOTHING;
      COMMIT;
    `);
  }

  /**
   * Gives the connection back. An open or failed transaction is rolled back
   * first; a connection whose rollback fails is closed, not reused.
   */
  async close(rollback: boolean): Promise<void> {
    if (this.lost) {
      return this.release(this.lost);
    }
    if (!rollback) {
      return this.release();
    }
    try {
      await this.client.query('ROLLBACK');
      this.release();
    } catch (error) {
      this.release(error as Error);
    }
  }

  private release(error?: Error): void {
    this.client.off('error', this.onError);
    this.client.release(error);
  }
}
