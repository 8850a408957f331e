import { request } from 'node:http';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import {
  harnessStarkKey,
  harnessWallet,
  issueExtendedApiKey,
  lighterApiKeyCredentials,
} from '../testing/live-harness';
import { SimControl } from '../testing/sim-control';

/** What the published-limit specs share: a simulator, its control, raw HTTP to its dialects. */
export interface LimitsWorld {
  sim: RunningVenueSim;
  control: SimControl;
}

export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

export const VENUES = ['hyperliquid', 'aster', 'paradex', 'extended', 'lighter'] as const;

export async function startLimitsWorld(seed: number): Promise<LimitsWorld> {
  const sim = await startVenueSim({ seed, tickMs: 0 });
  return { sim, control: new SimControl(sim.url) };
}

/** Every dialect back to its published numbers, nothing counted. */
export async function publishedAgain(world: LimitsWorld): Promise<void> {
  for (const venue of VENUES) {
    await world.control.setDialectRateLimits(venue, {});
    await world.control.resetDialectRateLimits(venue);
  }
}

/** A request to a dialect (`path` under `/dialects/`): its status, parsed body and headers. */
export async function call(
  world: LimitsWorld,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${world.sim.url}/dialects/${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a plain-text answer stays text
  }
  return { status: response.status, body, headers: response.headers };
}

/**
 * A GET to a dialect sent from the local address `source` (on Linux all of
 * 127/8 is the loopback: 127.0.0.2 and 127.0.0.3 are two senders): its
 * status and headers. Node's http, whose requests can bind a local address.
 */
export function getFrom(
  world: LimitsWorld,
  source: string,
  path: string,
): Promise<Pick<Answer, 'status'> & { headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${world.sim.url}/dialects/${path}`, { localAddress: source }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** A funded Extended account of the spec and its API key (`X-Api-Key`). */
export async function extendedAccount(world: LimitsWorld, label: string): Promise<string> {
  const { address } = harnessWallet(`limits:${label}`);
  await world.control.deposit('extended', address, '10000');
  return issueExtendedApiKey(world.sim.url, address, harnessStarkKey(`limits:${label}`));
}

/** A funded Lighter account of the spec: its index. */
export async function lighterAccount(world: LimitsWorld, label: string): Promise<number> {
  const { address } = harnessWallet(`limits:${label}`);
  const { apiKey } = await lighterApiKeyCredentials(world.sim.url, address, `limits:${label}`);
  await world.control.deposit('lighter', address, '10000');
  return Number(apiKey!.split(':')[0]);
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
