import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { FLAT_REQUEST_COSTS, type Egress, type VenueConfig } from '@sts/domain';
import { createVenueClient, type VenueClient } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import { SimControl } from '../testing/sim-control';

// The live client of @sts/venues (createVenueClient: ccxt pro, unmodified)
// against Hyperliquid's dialect: an account's egress decides the address the
// venue sees its requests and its sockets come from (on Linux all of 127/8 is
// the loopback). It lives here, as the live conformance suite does: a spec of
// libs/venues may not start the simulator (venue-sim depends on venues).

let sim: RunningVenueSim;
let control: SimControl;
const clients: VenueClient[] = [];

beforeAll(async () => {
  sim = await startVenueSim({ seed: 61, tickMs: 0 });
  control = new SimControl(sim.url);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await sim.stop();
});

const hyperliquid = (): VenueConfig => ({
  id: 'hyperliquid',
  mode: 'live',
  endpoint: `${sim.url}/dialects/hyperliquid`,
  makerCap: 1,
  capGroup: 'hyperliquid',
  rateLimitPerS: 10,
  ipRateLimitPerS: null,
  requestCosts: FLAT_REQUEST_COSTS,
  rateLimits: [],
  minTradeBudget: 1,
  minIpSharePerMin: 60,
  sharedAccountLimit: true,
  hedgeTimeoutMs: 3_000,
});

/** A funded account's connected client sending from `egress`, with BTC's book subscribed. */
async function connectedFrom(label: string, egress: Egress): Promise<VenueClient> {
  const privateKey = keccak256(toHex(`egress-spec:${label}`));
  const wallet = privateKeyToAccount(privateKey).address.toLowerCase();
  await control.deposit('hyperliquid', wallet, '10000');
  const client = await createVenueClient(
    hyperliquid(),
    { apiKey: '', apiSecret: privateKey, wallet },
    { egress },
  );
  clients.push(client);
  await client.connect();
  await client.subscribeBook('BTC');
  return client;
}

/** The venue's count of sockets per source key, once `expected` sockets are open. */
async function socketSources(expected: number): Promise<Record<string, number>> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const { sources } = await control.dialectSocketSources('hyperliquid');
    const total = sources.reduce((sum, source) => sum + source.opened, 0);
    if (total >= expected || Date.now() > deadline) {
      return Object.fromEntries(sources.map((source) => [source.key, source.opened]));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a live venue client sends from its account’s egress', () => {
  it('REST and WebSocket of a client bound to 127.0.0.2 come from 127.0.0.2, of one bound to 127.0.0.3 from 127.0.0.3', async () => {
    await connectedFrom('first', { id: 'a', bind: '127.0.0.2' });
    const first = await control.dialectRateLimits('hyperliquid');
    expect(first.pools[0].keys.map((count) => count.key)).toEqual(['ip:127.0.0.2']);
    // Hyperliquid's one socket carries the account stream and the books.
    expect(await socketSources(1)).toEqual({ 'ip:127.0.0.2': 1 });

    await connectedFrom('second', { id: 'b', bind: '127.0.0.3' });
    const both = await control.dialectRateLimits('hyperliquid');
    expect(both.pools[0].keys.map((count) => count.key)).toEqual(['ip:127.0.0.2', 'ip:127.0.0.3']);
    expect(await socketSources(2)).toEqual({ 'ip:127.0.0.2': 1, 'ip:127.0.0.3': 1 });
  });
});
