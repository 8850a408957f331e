import {
  CcxtVenueClient,
  createCcxtExchange,
  toVenueOrder,
  VenueNetworkError,
  type VenueClient,
} from '@sts/venues';
import { harnessCredentials, openLiveAccount } from '../../testing/live-harness';
import { startHlWorld, type HlWorld } from './hl-test-kit';

// What the live client's order requests weigh of H1 (1,200 a minute for
// every account behind one address). A cancel's outcome: Hyperliquid's account stream
// closes an order with `canceled` and what was left of it (`orderUpdates`:
// origSz, sz), so the client takes that update for what the order filled and
// reads nothing back. The read it replaces (`orderStatus`, weight 2 of the
// 1,200 a minute every account of an egress shares) followed every cancel.

let world: HlWorld;

beforeAll(async () => {
  world = await startHlWorld();
});

afterAll(async () => {
  await world.sim.stop();
});

async function liveClient(label: string): Promise<VenueClient & { wallet: string }> {
  const credentials = harnessCredentials(`hl-cancel-fate:${label}`);
  const exchange = await createCcxtExchange('hyperliquid', credentials, {
    endpoint: world.endpoint,
  });
  await openLiveAccount('hyperliquid', exchange, world.control, credentials.walletAddress!);
  const client = new CcxtVenueClient({ venue: 'hyperliquid', exchange });
  await client.connect();
  return Object.assign(client, { wallet: credentials.walletAddress! });
}

/** An outside taker takes `size` of the wallet's one resting order (the simulator's own fill of it). */
async function take(wallet: string, size: string): Promise<void> {
  const { orders } = await world.control.accountOrders('hyperliquid', wallet, { status: 'open' });
  const order = toVenueOrder('hyperliquid', orders[0]!.symbol, orders[0]!);
  await world.control.fillOrder('hyperliquid', order.symbol, order.orderId, size);
}

/** The weight H1 counted since the last reset, every address together. */
async function weightSpent(): Promise<number> {
  const { pools } = await world.control.dialectRateLimits('hyperliquid');
  return pools[0]!.keys.reduce((total, key) => total + key.admitted_weight, 0);
}

const resting = (clientOrderId: string) => ({
  symbol: 'SOL',
  side: 'buy' as const,
  price: '90',
  size: '0.2',
  clientOrderId,
});

describe('Hyperliquid: a cancel told by the order stream', () => {
  it('cancels a resting order for the weight of the cancel alone', async () => {
    const client = await liveClient('resting');
    try {
      const clientOrderId = `${'ce'.repeat(15)}01`;
      await client.placePostOnly(resting(clientOrderId));
      await world.control.resetDialectRateLimits('hyperliquid');
      const result = await client.cancel({ clientOrderId, symbol: 'SOL' });
      expect(result.outcome).toBe('canceled');
      expect(result.order).toMatchObject({ clientOrderId, status: 'canceled', filledSize: '0' });
      // The cancel action (1); without the stream's word, an orderStatus read (2) more.
      expect(await weightSpent()).toBe(1);
    } finally {
      await client.close();
    }
  });

  it.each([
    {
      when: 'tells what an order had filled before the cancel took the rest',
      label: 'partly-filled',
      id: `${'cf'.repeat(15)}02`,
      taken: '0.05',
      outcome: 'canceled',
      status: 'canceled',
    },
    {
      when: 'an order filled before its cancel: not open, filled in full, by the stream',
      label: 'filled',
      id: `${'cd'.repeat(15)}03`,
      taken: '0.2',
      outcome: 'not_open',
      status: 'filled',
    },
  ])('$when', async ({ label, id: clientOrderId, taken, outcome, status }) => {
    const client = await liveClient(label);
    try {
      await client.placePostOnly(resting(clientOrderId));
      await take(client.wallet, taken);
      await world.control.resetDialectRateLimits('hyperliquid');
      const result = await client.cancel({ clientOrderId, symbol: 'SOL' });
      expect(result.outcome).toBe(outcome);
      expect(result.order).toMatchObject({ status, filledSize: taken });
      expect(await weightSpent()).toBe(1);
    } finally {
      await client.close();
    }
  });
});

describe('Hyperliquid: orders batched by the live client', () => {
  it('places three orders for the weight of one action, and cancels them for one more', async () => {
    const client = await liveClient('batched');
    try {
      const requests = ['c1', 'c2', 'c3'].map((n, index) =>
        resting(`${n.repeat(15)}0${index + 1}`),
      );
      await world.control.resetDialectRateLimits('hyperliquid');
      const placed = await client.batch!.placePostOnly(
        requests.map((request, index) => ({ ...request, price: String(90 - index) })),
      );
      expect(placed.map((answer) => answer.ok && answer.value.order.status)).toEqual([
        'open',
        'open',
        'open',
      ]);
      // One order action of three: 1 + floor(3 / 40).
      expect(await weightSpent()).toBe(1);
      const canceled = await client.batch!.cancel(
        requests.map(({ clientOrderId }) => ({ clientOrderId, symbol: 'SOL' })),
      );
      expect(canceled.map((answer) => answer.ok && answer.value.outcome)).toEqual([
        'canceled',
        'canceled',
        'canceled',
      ]);
      // One cancel action; what each order filled came from the stream, not from reads.
      expect(await weightSpent()).toBe(2);
    } finally {
      await client.close();
    }
  });
});

describe("Hyperliquid: a wallet's abstraction the venue would not tell", () => {
  it('fails the connect instead of asking again, 20 weight, before every later action', async () => {
    const credentials = harnessCredentials('hl-cancel-fate:abstraction-refused');
    const opening = await createCcxtExchange('hyperliquid', credentials, {
      endpoint: world.endpoint,
    });
    await openLiveAccount('hyperliquid', opening, world.control, credentials.walletAddress!);
    await opening.close();
    // A new instance knows nothing of the wallet yet.
    const exchange = await createCcxtExchange('hyperliquid', credentials, {
      endpoint: world.endpoint,
    });
    const client = new CcxtVenueClient({ venue: 'hyperliquid', exchange });
    await world.control.resetDialectRateLimits('hyperliquid');
    // H1 admits 10 weight a minute: the read (20) is refused, the probe's cancel (1) is not.
    await world.control.setDialectRateLimits('hyperliquid', {
      pools: { H1: { capacity: 10, windowMs: 60_000 } },
    });
    try {
      await expect(client.connect()).rejects.toBeInstanceOf(VenueNetworkError);
      const { pools } = await world.control.dialectRateLimits('hyperliquid');
      const refused = pools[0]!.keys.reduce((total, key) => total + key.refused, 0);
      expect(refused).toBe(1);
    } finally {
      await world.control.setDialectRateLimits('hyperliquid', {});
      await client.close();
    }
  });
});
