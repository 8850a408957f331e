/**
 * What the benches that run the fleet as separate processes share: a free
 * loopback port for each service, waiting for one to answer, and a paper
 * trader seeded through the operator tool.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { runOps } from '@sts/operations';
import { sleep } from '@sts/platform';

/**
 * An app's entry point in the build the bench runs from (dist/, or a copy
 * built with `--out`): a bench built elsewhere runs its own services, not
 * whatever dist/ holds.
 */
export function builtApp(app: string): string {
  return join(__dirname, '..', 'apps', app, 'src', 'main.js');
}

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Until `url` answers 2xx, for at most 30 s. */
export async function waitFor(url: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const up = await fetch(url).then(
      (answer) => answer.ok,
      () => false,
    );
    if (up) {
      return;
    }
    await sleep(200);
  }
  throw new Error(`${url} did not come up`);
}

/** A trader of the bench: its user, wallet and trading API key. */
export interface PaperTrader {
  userId: string;
  wallet: string;
  key: string;
}

/** A user with a new wallet, paper credentials on `exchanges` and a key with trades:read and trades:write. */
export async function seedPaperTrader(
  env: Record<string, string>,
  exchanges: readonly string[],
): Promise<PaperTrader> {
  const wallet = `0x${randomBytes(20).toString('hex')}`;
  const user = (await runOps(['users', 'create', '--wallet', wallet], env)).output as {
    user_id: string;
  };
  for (const exchange of exchanges) {
    await runOps(
      [
        ...['credentials', 'add', '--user', user.user_id, '--exchange', exchange],
        ...['--wallet', wallet, '--api-key', `bench-${randomBytes(4).toString('hex')}`],
        ...['--api-secret', randomBytes(16).toString('hex')],
      ],
      env,
    );
  }
  return { userId: user.user_id, wallet, key: await tradingKey(env, user.user_id) };
}

/** A new API key of `userId` with trades:read and trades:write, as the operator tool issues it. */
export async function tradingKey(env: Record<string, string>, userId: string): Promise<string> {
  const key = (
    await runOps(
      ['api-keys', 'create', '--user', userId, '--scopes', 'trades:read,trades:write'],
      env,
    )
  ).output as { api_key: string };
  return key.api_key;
}

/**
 * A create's body for a trade that rests and never fills: maker long on
 * `maker`, hedge on `hedge`, one wallet both sides, a target spread far from
 * any the venues offer, so the maker rests at the touch and re-quotes as the
 * book moves, and no fill ends the trade mid-run.
 */
export function restingTradeBody(maker: string, hedge: string, wallet: string): string {
  return JSON.stringify({
    market: 'BTC',
    long_exchange: maker,
    short_exchange: hedge,
    long_wallet: wallet,
    short_wallet: wallet,
    target_spread: '500',
    spread_condition: 'gte',
    target_size: '0.01',
    execution_type: 'maker_taker',
    maker_leg: 'long',
    max_slippage: '0.001',
  });
}
