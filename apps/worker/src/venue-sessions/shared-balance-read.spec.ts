import { TokenBucket } from '@sts/budget-client';
import type { VenueBalance, VenueClient } from '@sts/venues';
import { SHARED_BALANCE_READ_MS, SharedBalanceRead } from './shared-balance-read';

/** A client whose balance reads are counted and answered when the spec says. */
function countingClient(): {
  client: VenueClient;
  reads: Array<{ answer(balances: VenueBalance[]): void; fail(error: Error): void }>;
} {
  const reads: Array<{ answer(balances: VenueBalance[]): void; fail(error: Error): void }> = [];
  const client = {
    sendsFollowUpRequests: false,
    balances: () =>
      new Promise<VenueBalance[]>((answer, fail) => {
        reads.push({ answer, fail });
      }),
  } as unknown as VenueClient;
  return { client, reads };
}

const usdc = (available: string): VenueBalance[] =>
  [{ asset: 'USDC', total: available, available }] as unknown as VenueBalance[];

describe('the balance read the pre-flights of one account share', () => {
  let now = 0;
  const shared = (): SharedBalanceRead => new SharedBalanceRead(() => now);
  beforeEach(() => {
    now = 10_000;
  });

  it('is one request for trades that ask while it is in flight or just answered', async () => {
    const { client, reads } = countingClient();
    const read = shared();
    const first = read.read(client, null);
    now += 200;
    const second = read.read(client, null);
    expect(reads).toHaveLength(1);
    reads[0]!.answer(usdc('500'));
    await expect(first).resolves.toEqual(usdc('500'));
    await expect(second).resolves.toEqual(usdc('500'));
    now += SHARED_BALANCE_READ_MS - 200;
    await expect(read.read(client, null)).resolves.toEqual(usdc('500'));
    expect(reads).toHaveLength(1);
  });

  it('goes at once behind a debt, owing its token: a start is not held past its bound', async () => {
    const { client, reads } = countingClient();
    // A pace of 36 a minute, 20 tokens owed for the account's opening read.
    const bucket = new TokenBucket(36 / 60, { slowBurst: 2 });
    bucket.charge(22);
    const read = shared().read(client, bucket);
    expect(reads).toHaveLength(1);
    reads[0]!.answer(usdc('500'));
    await expect(read).resolves.toEqual(usdc('500'));
    // Owed, so the trade's next request waits it out.
    expect(bucket.take()).toBe(false);
    expect(bucket.msUntilAvailable()).toBeGreaterThan(30_000);
    bucket.close('spec over');
  });

  it('reads again once the read is older than the window', async () => {
    const { client, reads } = countingClient();
    const read = shared();
    const first = read.read(client, null);
    reads[0]!.answer(usdc('500'));
    await first;
    now += SHARED_BALANCE_READ_MS + 1;
    const later = read.read(client, null);
    expect(reads).toHaveLength(2);
    reads[1]!.answer(usdc('450'));
    await expect(later).resolves.toEqual(usdc('450'));
  });

  it('never serves a failed read to a trade that asks after it failed', async () => {
    const { client, reads } = countingClient();
    const read = shared();
    const failed = read.read(client, null);
    const joined = read.read(client, null);
    reads[0]!.fail(new Error('venue unreachable'));
    await expect(failed).rejects.toThrow('venue unreachable');
    await expect(joined).rejects.toThrow('venue unreachable');
    const retried = read.read(client, null);
    expect(reads).toHaveLength(2);
    reads[1]!.answer(usdc('500'));
    await expect(retried).resolves.toEqual(usdc('500'));
  });
});
