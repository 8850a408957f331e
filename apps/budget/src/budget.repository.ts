import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { BudgetAccount, BudgetRole, HolderShare } from '@sts/contracts';
import { isVenueId } from '@sts/domain';
import { AppError, type Redis } from '@sts/platform';
import {
  NOT_READY,
  type AccountChange,
  type AccountLookup,
  type AccountState,
  type AccountTerms,
  type HeldTrade,
  type HolderRef,
  type RebalanceOutcome,
  type RebuildPlan,
  type ReleaseOutcome,
  type ReserveOutcome,
  type TradeLookup,
} from './budget.types';
import { REDIS } from './tokens';

/** A Lua script run by EVALSHA, loaded again when Redis lost its script cache (restart). */
class LuaScript {
  private readonly source: string;
  private readonly sha: string;

  constructor(name: string) {
    this.source = readFileSync(join(__dirname, 'lua', `${name}.lua`), 'utf8');
    this.sha = createHash('sha1').update(this.source).digest('hex');
  }

  async run(redis: Redis, keys: string[], args: Array<string | number>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) {
        throw error;
      }
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

const SCRIPTS = {
  reserve: new LuaScript('reserve'),
  release: new LuaScript('release'),
  rebalance: new LuaScript('rebalance'),
  rebuild: new LuaScript('rebuild'),
};

// Every key carries the hash tag {budget}: a reserve spans two accounts in one
// script, which Redis Cluster allows only within one slot. The whole budget
// state is small (a few keys per live trade), so one slot is no burden.
const TAG = '{budget}';
const KEYS = {
  ready: `${TAG}:ready`,
  version: `${TAG}:version`,
  accounts: `${TAG}:accounts`,
  trades: `${TAG}:trades`,
  account: (account: BudgetAccount) => `${TAG}:account:${account.venue}:${account.wallet}`,
  holders: (account: BudgetAccount) => `${TAG}:holders:${account.venue}:${account.wallet}`,
  trade: (tradeId: string) => `${TAG}:trade:${tradeId}`,
  lock: (name: string) => `${TAG}:lock:${name}`,
};

const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

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
    return (await this.guard(() => this.redis.exists(KEYS.ready))) === 1;
  }

  async reserve(
    tradeId: string,
    maker: AccountTerms,
    hedge: AccountTerms | null,
    nowMs: number,
    force: boolean,
  ): Promise<ReserveOutcome> {
    const accounts = hedge ? [maker, hedge] : [maker];
    const roles: BudgetRole[] = ['maker', 'hedge'];
    const reply = await this.script(
      SCRIPTS.reserve,
      [...this.fixedKeys(tradeId), ...accounts.flatMap((a) => [KEYS.account(a), KEYS.holders(a)])],
      [
        tradeId,
        nowMs,
        force ? '1' : '0',
        ...accounts.flatMap((a, i) => [roles[i]!, a.venue, a.wallet, a.limit, a.min]),
      ],
    );
    const [status, ...rest] = reply;
    switch (status) {
      case 'not_ready':
        return NOT_READY;
      case 'conflict':
        return { kind: 'conflict' };
      case 'refused':
        return { kind: 'refused', role: rest[0] as BudgetRole, holders: Number(rest[1]) };
      case 'existing': {
        const shares = (rest as Array<[BudgetRole, number, number]>).map(
          ([role, share, version]) => ({
            role,
            share,
            version,
          }),
        );
        const shareOf = (role: BudgetRole, account: AccountTerms): HolderShare => {
          const found = shares.find((entry) => entry.role === role)!;
          return {
            venue: account.venue,
            wallet: account.wallet,
            share: found.share,
            version: found.version,
          };
        };
        return {
          kind: 'existing',
          shares: { maker: shareOf('maker', maker), hedge: hedge ? shareOf('hedge', hedge) : null },
        };
      }
      case 'granted': {
        const changes = parseChanges(Number(rest[0]), rest.slice(1));
        const shareOf = (role: BudgetRole): HolderShare => {
          const change = changes.find((entry) => entry.role === role)!;
          return {
            venue: change.venue,
            wallet: change.wallet,
            share: change.after,
            version: change.version,
          };
        };
        return {
          kind: 'granted',
          shares: { maker: shareOf('maker'), hedge: hedge ? shareOf('hedge') : null },
          changes,
        };
      }
      default:
        throw unexpected('reserve', status);
    }
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
      const reply = await this.script(
        SCRIPTS.release,
        [
          ...this.fixedKeys(tradeId),
          ...accounts.flatMap(([, a]) => [KEYS.account(a), KEYS.holders(a)]),
        ],
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
          return { kind: 'released', changes: parseChanges(Number(rest[0]), rest.slice(1)) };
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
    const states = await this.guard(() =>
      this.redis.multi(accounts.map((a) => ['hmget', KEYS.account(a), 'share', 'seq'])).exec(),
    );
    const shares = accounts.map((account, i): HolderShare | null => {
      const [share, version] = execResult<Array<string | null>>(states, i);
      if (share === null || version === null) {
        return null;
      } // released meanwhile
      return { ...account, share: Number(share), version: Number(version) };
    });
    if (shares.some((share) => share === null)) {
      return { kind: 'not_found' };
    }
    return { kind: 'found', maker: shares[0]!, hedge: shares[1] ?? null };
  }

  async readAccount(account: BudgetAccount): Promise<AccountLookup> {
    const results = await this.guard(() =>
      this.redis
        .multi()
        .exists(KEYS.ready)
        .hgetall(KEYS.account(account))
        .smembers(KEYS.holders(account))
        .exec(),
    );
    if (execResult<number>(results, 0) === 0) {
      return NOT_READY;
    }
    const hash = execResult<Record<string, string>>(results, 1);
    const members = execResult<string[]>(results, 2);
    if (!hash['limit'] || members.length === 0) {
      return { kind: 'found', state: null };
    }
    const state: AccountState = {
      venue: account.venue,
      wallet: account.wallet,
      limit: Number(hash['limit']),
      min: Number(hash['min']),
      share: Number(hash['share']),
      version: Number(hash['seq']),
      holders: members.map(parseHolder),
    };
    return { kind: 'found', state };
  }

  /** Every trade holding budget, with when it reserved (for the orphan grace period). */
  async listHeldTrades(): Promise<HeldTrade[]> {
    const ids = await this.guard(() => this.redis.zrange(KEYS.trades, 0, -1));
    if (ids.length === 0) {
      return [];
    }
    const hashes = await this.guard(() =>
      this.redis.multi(ids.map((id) => ['hgetall', KEYS.trade(id)])).exec(),
    );
    return ids.flatMap((tradeId, i) => {
      const hash = execResult<Record<string, string>>(hashes, i);
      return hash['maker_venue'] ? [toHeldTrade(tradeId, hash)] : [];
    });
  }

  async listAccounts(): Promise<BudgetAccount[]> {
    const ids = await this.guard(() => this.redis.smembers(KEYS.accounts));
    return ids.flatMap((id) => {
      const separator = id.indexOf(':');
      const venue = id.slice(0, separator);
      return isVenueId(venue) ? [{ venue, wallet: id.slice(separator + 1) }] : [];
    });
  }

  async rebalance(terms: AccountTerms): Promise<RebalanceOutcome> {
    const reply = await this.script(
      SCRIPTS.rebalance,
      [KEYS.ready, KEYS.version, KEYS.account(terms), KEYS.holders(terms)],
      [terms.limit, terms.min],
    );
    const [status, ...rest] = reply;
    switch (status) {
      case 'not_ready':
        return NOT_READY;
      case 'unchanged':
        return { kind: 'unchanged' };
      case 'rebalanced':
        return { kind: 'rebalanced', change: parseChanges(Number(rest[0]), rest.slice(1))[0]! };
      default:
        throw unexpected('rebalance', status);
    }
  }

  /** Writes the plan and the ready marker, unless another rebuild got there first. */
  async rebuild(plan: RebuildPlan, nowMs: number): Promise<'rebuilt' | 'already'> {
    // Leftovers of an earlier state (the marker alone may have been lost) go first.
    const [accountIds, tradeIds] = await Promise.all([
      this.listAccounts(),
      this.guard(() => this.redis.zrange(KEYS.trades, 0, -1)),
    ]);
    const stale = [
      ...accountIds.flatMap((a) => [KEYS.account(a), KEYS.holders(a)]),
      ...tradeIds.map(KEYS.trade),
    ];
    const keys = [
      KEYS.ready,
      KEYS.version,
      KEYS.accounts,
      KEYS.trades,
      ...stale,
      ...plan.accounts.flatMap((a) => [KEYS.account(a), KEYS.holders(a)]),
      ...plan.trades.map((t) => KEYS.trade(t.tradeId)),
    ];
    const encoded = JSON.stringify({
      stale: stale.length,
      accounts: plan.accounts.map((a) => ({
        venue: a.venue,
        wallet: a.wallet,
        limit: a.limit,
        min: a.min,
        holders: a.holders.map((h) => `${h.tradeId}|${h.role}`),
      })),
      trades: plan.trades.map((t) => ({
        id: t.tradeId,
        maker_venue: t.maker.venue,
        maker_wallet: t.maker.wallet,
        hedge_venue: t.hedge?.venue ?? '',
        hedge_wallet: t.hedge?.wallet ?? '',
      })),
    });
    const [status] = await this.script(SCRIPTS.rebuild, keys, [nowMs, encoded]);
    if (status !== 'rebuilt' && status !== 'already') {
      throw unexpected('rebuild', status);
    }
    return status;
  }

  /** A lease other replicas respect: only one sweeps or rebuilds at a time. */
  async tryLock(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const set = await this.guard(() => this.redis.set(KEYS.lock(name), owner, 'PX', ttlMs, 'NX'));
    return set === 'OK';
  }

  async unlock(name: string, owner: string): Promise<void> {
    await this.guard(() => this.redis.eval(UNLOCK, 1, KEYS.lock(name), owner));
  }

  private fixedKeys(tradeId: string): string[] {
    return [KEYS.ready, KEYS.version, KEYS.accounts, KEYS.trades, KEYS.trade(tradeId)];
  }

  private async readHeldTrade(tradeId: string): Promise<HeldTrade | null | 'not_ready'> {
    const results = await this.guard(() =>
      this.redis.multi().exists(KEYS.ready).hgetall(KEYS.trade(tradeId)).exec(),
    );
    if (execResult<number>(results, 0) === 0) {
      return 'not_ready';
    }
    const hash = execResult<Record<string, string>>(results, 1);
    return hash['maker_venue'] ? toHeldTrade(tradeId, hash) : null;
  }

  private async script(
    script: LuaScript,
    keys: string[],
    args: Array<string | number>,
  ): Promise<unknown[]> {
    const reply = await this.guard(() => script.run(this.redis, keys, args));
    if (!Array.isArray(reply)) {
      throw unexpected('script', reply);
    }
    return reply as unknown[];
  }

  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw new AppError('budget_unavailable', 'the budget store (Redis) is unreachable', {
        cause: error,
      });
    }
  }
}

type ExecResults = Array<[Error | null, unknown]> | null;

function execResult<T>(results: ExecResults, index: number): T {
  const entry = results?.[index];
  if (!entry) {
    throw new AppError('budget_unavailable', 'Redis transaction was discarded');
  }
  if (entry[0]) {
    throw new AppError('budget_unavailable', 'Redis command failed', { cause: entry[0] });
  }
  return entry[1] as T;
}

function parseHolder(member: string): HolderRef {
  const [tradeId, role] = member.split('|');
  return { tradeId: tradeId!, role: role === 'hedge' ? 'hedge' : 'maker' };
}

/** Script replies list one {role, venue, wallet, before, after, holders} entry per account. */
function parseChanges(version: number, entries: unknown[]): AccountChange[] {
  return entries.map((entry) => {
    const [role, venue, wallet, before, after, holders] = entry as [
      string,
      string,
      string,
      number,
      number,
      string[],
    ];
    if (!isVenueId(venue)) {
      throw unexpected('change', venue);
    }
    return {
      role: role === '' ? null : (role as BudgetRole),
      venue,
      wallet,
      before,
      after,
      holders: holders.map(parseHolder),
      version,
    };
  });
}

function toHeldTrade(tradeId: string, hash: Record<string, string>): HeldTrade {
  const account = (venue: string | undefined, wallet: string | undefined): BudgetAccount | null =>
    venue && wallet && isVenueId(venue) ? { venue, wallet } : null;
  return {
    tradeId,
    reservedAtMs: Number(hash['reserved_at']),
    maker: account(hash['maker_venue'], hash['maker_wallet'])!,
    hedge: account(hash['hedge_venue'], hash['hedge_wallet']),
  };
}

const unexpected = (operation: string, reply: unknown): AppError =>
  new AppError(
    'internal_error',
    `unexpected ${operation} reply from Redis: ${JSON.stringify(reply)}`,
  );
