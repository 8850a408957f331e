import type { DeadManSwitch, VenueClient } from '@sts/venues';
import { spendCountedClient } from './spend-counted-client';

/** A client whose calls answer at once; only what the wrapper touches is there. */
function venue(): VenueClient {
  const deadManSwitch: DeadManSwitch = {
    minTimeoutMs: 5_000,
    arm: () => Promise.resolve({ armed: true, cancelsAtMs: 1 }),
    disarm: () => Promise.resolve(),
  };
  const answer = () => Promise.resolve({} as never);
  return {
    venue: 'hyperliquid',
    deadManSwitch,
    placePostOnly: answer,
    placeIoc: answer,
    cancel: answer,
    replace: answer,
    openOrders: () => Promise.resolve([]),
    order: answer,
  } as unknown as VenueClient;
}

describe('spendCountedClient: the order requests a cumulative budget may count', () => {
  it('counts placements, IOCs and cancels one each, a replace two, before each goes', async () => {
    const spent: number[] = [];
    const client = spendCountedClient(venue(), (requests) => spent.push(requests));
    const request = {
      symbol: 'BTC',
      side: 'buy',
      price: '1',
      size: '1',
      clientOrderId: 'a',
    } as const;
    await client.placePostOnly(request);
    await client.placeIoc(request);
    await client.cancel({ clientOrderId: 'a' });
    await client.replace({} as never);
    expect(spent).toEqual([1, 1, 1, 2]);
  });

  it('counts the dead-man switch armings and disarmings; its minimum passes through', async () => {
    const spent: number[] = [];
    const client = spendCountedClient(venue(), (requests) => spent.push(requests));
    const deadMan = client.deadManSwitch!;
    expect(client.deadManSwitch).toBe(deadMan);
    expect(deadMan.minTimeoutMs).toBe(5_000);
    await deadMan.arm(15_000);
    await deadMan.disarm();
    expect(spent).toEqual([1, 1]);
  });

  it('reads count nothing and pass through as they are', async () => {
    const spent: number[] = [];
    const client = spendCountedClient(venue(), (requests) => spent.push(requests));
    expect(await client.openOrders()).toEqual([]);
    expect(client.venue).toBe('hyperliquid');
    expect(client.openOrders).toBe(client.openOrders);
    expect(spent).toEqual([]);
  });
});
