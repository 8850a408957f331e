import { keccak256, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createCcxtExchange, type CcxtExchangeLike } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { SimControl } from '../../testing/sim-control';
import type { LoggedRequest } from './request-log';

/** The real ccxt pro class, as the live client builds it (integrator fees off). */
export type AsterCcxt = CcxtExchangeLike & {
  fetchOrderBook(symbol: string, limit?: number): Promise<{ bids: number[][]; asks: number[][] }>;
  fetchFundingRates(symbols?: string[]): Promise<Record<string, { fundingRate?: number }>>;
  options: Record<string, unknown>;
  loadHttpProxyAgent(): Promise<unknown>;
  watchMyTrades: NonNullable<CcxtExchangeLike['watchMyTrades']>;
};

export interface AsterWorld {
  sim: RunningVenueSim;
  control: SimControl;
  endpoint: string;
}

export async function startAsterWorld(): Promise<AsterWorld> {
  const sim = await startVenueSim({ seed: 1, tickMs: 0 });
  return { sim, control: new SimControl(sim.url), endpoint: `${sim.url}/dialects/aster` };
}

export function walletOf(label: string): { privateKey: Hex; address: string } {
  const privateKey = keccak256(toHex(`aster-dialect-spec:${label}`));
  return { privateKey, address: privateKeyToAccount(privateKey).address.toLowerCase() };
}

/** A ccxt client of a wallet, funded on the simulated Aster unless `funded` is false. */
export async function asterTrader(
  world: AsterWorld,
  label: string,
  funded = true,
): Promise<{ exchange: AsterCcxt; address: string }> {
  const { privateKey, address } = walletOf(label);
  if (funded) {
    await world.control.deposit('aster', address, '100000');
  }
  const exchange = (await createCcxtExchange(
    'aster',
    { privateKey, walletAddress: address },
    { endpoint: world.endpoint },
  )) as AsterCcxt;
  // ccxt spaces requests 333 ms apart on its own; the simulator's limit is what counts here.
  (exchange as unknown as { enableRateLimit: boolean }).enableRateLimit = false;
  // ccxt refuses ws:// (non-TLS) URLs until this agent is loaded; createCcxtExchange
  // does not load it, so a live client on a plain-http endpoint must.
  await exchange.loadHttpProxyAgent();
  unrefDelays(exchange);
  return { exchange, address };
}

/**
 * ccxt schedules its listenKey keepalive an hour ahead with a plain
 * setTimeout that close() does not clear; unref'd, it no longer keeps a spec
 * process alive.
 */
function unrefDelays(exchange: AsterCcxt): void {
  const scheduler = exchange as unknown as {
    delay: (ms: number, method: unknown, ...args: unknown[]) => void;
    spawn: (method: unknown, ...args: unknown[]) => unknown;
  };
  scheduler.delay = (ms, method, ...args) => {
    setTimeout(() => scheduler.spawn(method, ...args), ms).unref();
  };
}

export async function loggedRequests(world: AsterWorld, user: string): Promise<LoggedRequest[]> {
  const response = await fetch(`${world.endpoint}/_sim/requests?user=${user}`);
  return ((await response.json()) as { requests: LoggedRequest[] }).requests;
}

/** What a ccxt call threw: its class name and message. */
export async function thrown(call: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await call;
  } catch (error) {
    return { name: (error as Error).constructor.name, message: (error as Error).message };
  }
  throw new Error('expected the call to throw');
}

export const ETH = 'ETH/USDT:USDT';
