import { TokenBucket, type BucketClock } from '@sts/budget-client';
import { payForShared } from './shared-payment';

/** Time stands still for the buckets: a dry bucket stays dry while the payment looks. */
const frozen: BucketClock = { now: () => 0, schedule: () => () => undefined };

const dry = (): TokenBucket => {
  const bucket = new TokenBucket(2, { clock: frozen });
  expect(bucket.take()).toBe(true);
  return bucket;
};

describe("a request the account's trades share, paid from their budgets", () => {
  it('takes a token from the first listening trade that has one', async () => {
    const empty = dry();
    const full = new TokenBucket(2, { clock: frozen });
    await expect(payForShared([{ bucket: empty }, { bucket: full }], 0)).resolves.toBe(full);
    expect(full.take()).toBe(false);
  });

  it('is owed by a trade when every budget stays dry, never sent unpaid', async () => {
    const bucket = dry();
    const before = bucket.msUntilAvailable();
    await expect(payForShared([{ bucket }], 0)).resolves.toBe(bucket);
    // A token owed: the trade's next request waits longer for it.
    expect(bucket.msUntilAvailable()).toBeGreaterThan(before);
  });

  it('passes over a trade whose budget closed, and is unpaid only without any budget', async () => {
    const closed = dry();
    closed.close('trade ended');
    const open = dry();
    await expect(payForShared([{ bucket: closed }, { bucket: open }], 0)).resolves.toBe(open);
    await expect(payForShared([{ bucket: closed }], 0)).resolves.toBeNull();
    await expect(payForShared([{}], 0)).resolves.toBeNull();
  });
});
