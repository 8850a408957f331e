import { Inject, Injectable } from '@nestjs/common';
import type { BudgetAccount, BudgetRole, CumulativeReading } from '@sts/contracts';
import { isVenueId, VENUE_IDS } from '@sts/domain';
import type { AccountShareState } from '@sts/persistence';
import { AppError, type Redis } from '@sts/platform';
import {
  execResult,
  guardRedis,
  KEYS,
  NOT_READY,
  parseChanges,
  rebuildCall,
  reportCumulative,
  reserveShares,
  reserveSharesBatch,
  runScript,
  SCRIPTS,
  toHeldTrade,
  tradeKeys,
  UNLOCK,
  unexpected,
  type AccountLookup,
  type AccountShareCount,
  type AccountTerms,
  type HeldTrade,
  type KeptCumulative,
  type RebalanceOutcome,
  type RebuildPlan,
  type ReleaseOutcome,
  type ReserveOutcome,
  type TradeLookup,
  type VenueLimits,
} from '@sts/budget-store';
import { readAccount, readShareCounts, SHARE_FIELDS, shareOf } from './account-reads';
import { REDIS } from './tokens';

/** A trade in the trades index, and when it reserved. */
export type HeldSince = Pick<HeldTrade, 'tradeId' | 'reservedAtMs'>;

/**
 * The only code that touches Redis. Budget state per venue account: a hash
 * (limit, min, share, version) and the set of its holders (`trade_id|role`);
 * per trade: a hash naming its accounts. Every change runs in one Lua script,
 * so concurrent reserves and releases never see a half-applied division.
 * Redis failures surface as AppError `budget_unavailable`.
 */
@Injectable()
export class BudgetRepository {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async isReady(): Promise<boolean> {
    return (await guardRedis(() => this.redis.exists(KEYS.ready))) === 1;
  }

  reserve(
    tradeId: string,
    maker: AccountTerms,
    hedge: AccountTerms | null,
    nowMs: number,
    force: boolean,
  ): Promise<ReserveOutcome> {
    return reserveShares(this.redis, { tradeId, maker, hedge, nowMs, force });
  }

  /** Several trades' reservations in one round trip (each atomic on its own, in order). */
  reserveBatch(
    requests: Array<{ tradeId: string; maker: AccountTerms; hedge: AccountTerms | null }>,
    nowMs: number,
  ): Promise<ReserveOutcome[]> {
    return reserveSharesBatch(
      this.redis,
      requests.map((request) => ({ ...request, nowMs, force: false })),
    );
  }

  async release(tradeId: string): Promise<ReleaseOutcome> {
    // The script needs the trade's account keys, which only the trade hash
    // names: read it, then let the script check it is unchanged.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const held = await this.readHeldTrade(tradeId);
      if (held === 'not_ready') {
        return NOT_READY;
      }
      if (!held) {
        return { kind: 'not_found' };
      }
      const accounts: Array<[BudgetRole, BudgetAccount]> = [['maker', held.maker]];
      if (held.hedge) {
        accounts.push(['hedge', held.hedge]);
      }
      const reply = await runScript(
        this.redis,
        SCRIPTS.release,
        [...tradeKeys(tradeId), ...accounts.flatMap(([, a]) => [KEYS.account(a), KEYS.holders(a)])],
        [tradeId, ...accounts.flatMap(([role, a]) => [role, a.venue, a.wallet])],
      );
      const [status, ...rest] = reply;
      switch (status) {
        case 'not_ready':
          return NOT_READY;
        case 'not_found':
          return { kind: 'not_found' };
        case 'retry':
          continue;
        case 'released':
          return {
            kind: 'released',
            changes: parseChanges(Number(rest[0]), rest.slice(1), { tradeId, direction: 'left' }),
          };
        default:
          throw unexpected('release', status);
      }
    }
    throw new AppError('conflict', `trade ${tradeId} kept changing while being released`);
  }

  async readTrade(tradeId: string): Promise<TradeLookup> {
    const held = await this.readHeldTrade(tradeId);
    if (held === 'not_ready') {
      return NOT_READY;
    }
    if (!held) {
      return { kind: 'not_found' };
    }
    const accounts = held.hedge ? [held.maker, held.hedge] : [held.maker];
    // The trade checked again in the same transaction as the shares: released
    // between the two reads, it must not answer its accounts' grown shares at
    // the version of its own release (a watch would take the leg back).
    const states = await guardRedis(() =>
      this.redis
        .multi([
          ['exists', KEYS.trade(tradeId)],
          ...accounts.map((a) => ['hmget', KEYS.account(a), ...SHARE_FIELDS]),
        ])
        .exec(),
    );
    const shares = accounts.map((account, i) =>
      shareOf(account, execResult<Array<string | null>>(states, i + 1)),
    );
    if (execResult<number>(states, 0) === 0 || shares.some((share) => share === null)) {
      return { kind: 'not_found' };
    }
    return { kind: 'found', maker: shares[0]!, hedge: shares[1] ?? null };
  }

  readAccount(account: AccountTerms): Promise<AccountLookup> {
    return readAccount(this.redis, account);
  }

  /**
   * The accounts' shares, versions and holder counts, in one round trip
   * whatever the number of accounts and holders (a sweep's republish); an
   * account that holds nothing any more is left out.
   */
  readShareCounts(accounts: BudgetAccount[]): Promise<AccountShareCount[]> {
    return readShareCounts(this.redis, accounts);
  }

  /** An account's share and its version, without its holders (the account rows' writer). */
  async readShare(account: BudgetAccount): Promise<AccountShareState | null> {
    return shareOf(
      account,
      await guardRedis(() => this.redis.hmget(KEYS.account(account), ...SHARE_FIELDS)),
    );
  }

  /**
   * Every trade holding budget, with when it reserved (for the orphan grace
   * period): the trades index alone, one command, whatever the number of
   * trades (the sweep needs no trade's hash; a release reads its own).
   */
  async listHeldTrades(): Promise<HeldSince[]> {
    const flat = await guardRedis(() => this.redis.zrange(KEYS.trades, 0, -1, 'WITHSCORES'));
    const held: HeldSince[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      held.push({ tradeId: flat[i]!, reservedAtMs: Number(flat[i + 1]) });
    }
    return held;
  }

  async listAccounts(): Promise<BudgetAccount[]> {
    const ids = await guardRedis(() => this.redis.smembers(KEYS.accounts));
    return ids.flatMap((id) => {
      const separator = id.indexOf(':');
      const venue = id.slice(0, separator);
      return isVenueId(venue) ? [{ venue, wallet: id.slice(separator + 1) }] : [];
    });
  }

  /**
   * Re-divides every account of a venue by the registry's terms now and
   * moves each to the pool of its egress under the plan now (rebalance.lua):
   * `accounts` are the venue's accounts the accounts index lists, each with
   * its egress by the plan, so the pools' own sets are healed from them;
   * `egresses`: the plan's egress ids.
   */
  async rebalance(
    terms: VenueLimits,
    accounts: Array<{ wallet: string; egress: string }>,
    egresses: string[],
  ): Promise<RebalanceOutcome> {
    const reply = await runScript(
      this.redis,
      SCRIPTS.rebalance,
      [KEYS.ready, KEYS.version],
      [
        terms.venue,
        terms.limit,
        terms.min,
        terms.venueLimit ?? '',
        egresses.length,
        ...egresses,
        ...accounts.flatMap((a) => [a.wallet, a.egress]),
      ],
    );
    const [status, ...rest] = reply;
    switch (status) {
      case 'not_ready':
        return NOT_READY;
      case 'unchanged':
        return { kind: 'unchanged' };
      case 'rebalanced':
        return { kind: 'rebalanced', changes: parseChanges(Number(rest[0]), rest.slice(1), null) };
      default:
        throw unexpected('rebalance', status);
    }
  }

  /** Writes the plan and the ready marker, unless another rebuild got there first. */
  async rebuild(plan: RebuildPlan, nowMs: number): Promise<'rebuilt' | 'already'> {
    // Leftovers of an earlier state (the marker alone may have been lost) go first.
    const [accountIds, tradeIds] = await Promise.all([
      this.listAccounts(),
      guardRedis(() => this.redis.zrange(KEYS.trades, 0, -1)),
    ]);
    const pools = await this.storedPools(accountIds);
    const stale = [
      ...accountIds.flatMap((a) => [KEYS.account(a), KEYS.holders(a)]),
      ...pools.flatMap((pool) => [KEYS.venue(pool), KEYS.venueWallets(pool)]),
      ...tradeIds.map(KEYS.trade),
    ];
    const { keys, args } = rebuildCall(plan, stale, nowMs);
    const [status] = await runScript(this.redis, SCRIPTS.rebuild, keys, args);
    if (status !== 'rebuilt' && status !== 'already') {
      throw unexpected('rebuild', status);
    }
    return status;
  }

  /**
   * The pools the accounts are stored in, and every venue's pool from before
   * egresses: what an earlier state may have left, whatever its plan was.
   */
  private async storedPools(accounts: BudgetAccount[]): Promise<string[]> {
    if (accounts.length === 0) {
      return [...VENUE_IDS];
    }
    const stored = await guardRedis(() =>
      this.redis.multi(accounts.map((a) => ['hget', KEYS.account(a), 'pool'])).exec(),
    );
    const named = accounts.map((_, i) => execResult<string | null>(stored, i));
    return [...new Set([...VENUE_IDS, ...named.flatMap((pool) => (pool ? [pool] : []))])];
  }

  /** A worker's report on an account's cumulative budget; what is kept after it (cumulative.lua). */
  reportCumulative(
    account: BudgetAccount,
    reading: CumulativeReading | null,
    spent: number,
  ): Promise<KeptCumulative | null> {
    return reportCumulative(this.redis, account, reading, spent);
  }

  /** A lease other replicas respect: only one sweeps or rebuilds at a time. */
  async tryLock(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const set = await guardRedis(() => this.redis.set(KEYS.lock(name), owner, 'PX', ttlMs, 'NX'));
    return set === 'OK';
  }

  async unlock(name: string, owner: string): Promise<void> {
    await guardRedis(() => this.redis.eval(UNLOCK, 1, KEYS.lock(name), owner));
  }

  private async readHeldTrade(tradeId: string): Promise<HeldTrade | null | 'not_ready'> {
    const results = await guardRedis(() =>
      this.redis.multi().exists(KEYS.ready).hgetall(KEYS.trade(tradeId)).exec(),
    );
    if (execResult<number>(results, 0) === 0) {
      return 'not_ready';
    }
    const hash = execResult<Record<string, string>>(results, 1);
    return hash['maker_venue'] ? toHeldTrade(tradeId, hash) : null;
  }
}
