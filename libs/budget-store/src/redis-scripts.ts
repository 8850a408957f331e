import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BudgetAccount } from '@sts/contracts';
import type { Redis } from '@sts/platform';

const luaSource = (name: string): string =>
  readFileSync(join(__dirname, 'lua', `${name}.lua`), 'utf8');

/**
 * A Lua script run by EVALSHA, loaded again when Redis lost its script cache
 * (restart). `libraries` are Lua files prepended to it: functions several
 * scripts share (Redis runs a script as one chunk, with no `require`).
 */
export class LuaScript {
  private readonly source: string;
  private readonly sha: string;

  constructor(name: string, libraries: string[] = []) {
    this.source = [...libraries, name].map(luaSource).join('\n');
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

  /**
   * Runs the script once per call in one pipeline (one round trip); each
   * call is atomic, the calls are not atomic together. A call whose script
   * Redis no longer caches runs again alone (EVAL).
   */
  async runMany(
    redis: Redis,
    calls: Array<{ keys: string[]; args: Array<string | number> }>,
  ): Promise<unknown[]> {
    const pipeline = redis.pipeline();
    for (const call of calls) {
      pipeline.evalsha(this.sha, call.keys.length, ...call.keys, ...call.args);
    }
    const replies = (await pipeline.exec()) ?? [];
    return Promise.all(
      calls.map(async (call, i) => {
        const [error, reply] = replies[i] ?? [new Error('no reply in the pipeline'), null];
        if (!error) {
          return reply;
        }
        if (!error.message.startsWith('NOSCRIPT')) {
          throw error;
        }
        return this.run(redis, call.keys, call.args);
      }),
    );
  }
}

export const SCRIPTS = {
  reserve: new LuaScript('reserve', ['venue-share']),
  release: new LuaScript('release', ['venue-share']),
  rebalance: new LuaScript('rebalance', ['venue-share']),
  rebuild: new LuaScript('rebuild'),
};

// Every key carries the hash tag {budget}: a reserve spans two accounts in one
// script, which Redis Cluster allows only within one slot. The whole budget
// state is small (a few keys per live trade), so one slot is no burden.
const TAG = '{budget}';
export const KEYS = {
  ready: `${TAG}:ready`,
  version: `${TAG}:version`,
  accounts: `${TAG}:accounts`,
  trades: `${TAG}:trades`,
  account: (account: BudgetAccount) => `${TAG}:account:${account.venue}:${account.wallet}`,
  holders: (account: BudgetAccount) => `${TAG}:holders:${account.venue}:${account.wallet}`,
  trade: (tradeId: string) => `${TAG}:trade:${tradeId}`,
  // venue-share.lua derives these two (and an account's) from `ready`: keep them in step.
  // `pool`: `<venue>@<egress>` (poolOf), or a venue alone (the pool before egresses).
  venue: (pool: string) => `${TAG}:venue:${pool}`,
  venueWallets: (pool: string) => `${TAG}:venue_wallets:${pool}`,
  lock: (name: string) => `${TAG}:lock:${name}`,
};

/** Deletes a lock only when it is still the caller's. */
export const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
