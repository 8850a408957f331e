import { TokenBucket } from '@sts/budget-client';
import { beforeVenueRequest } from '@sts/venues';
import { paidAtOnce, paidFrom, paidOnCredit } from './paid-requests';

const live = { sendsFollowUpRequests: true };

/** A stand-in live call: a placement, then a read of its queued fate the venue weighs at `readCost` tokens. */
const placeThenRead = (readCost: number, sent: string[]) => async (): Promise<void> => {
  await beforeVenueRequest(1);
  sent.push('place');
  await beforeVenueRequest(readCost);
  sent.push('read');
};

describe('paying a call and its follow-up requests from a trade budget', () => {
  it('a quote waits to pay for a dear follow-up read before sending it', async () => {
    const bucket = new TokenBucket(100);
    const sent: string[] = [];
    expect(bucket.take()).toBe(true);
    const started = Date.now();
    await paidFrom(bucket, 1, live, placeThenRead(20, sent));
    expect(sent).toEqual(['place', 'read']);
    // 20 tokens at 100 a second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
  });

  it('a hedge sends it at once on credit, and what follows waits the debt out', async () => {
    const bucket = new TokenBucket(100);
    const sent: string[] = [];
    expect(bucket.take()).toBe(true);
    const started = Date.now();
    await paidOnCredit(bucket, 1, live, placeThenRead(20, sent));
    expect(sent).toEqual(['place', 'read']);
    expect(Date.now() - started).toBeLessThan(50);
    expect(bucket.msUntilAvailable()).toBeGreaterThanOrEqual(190);
  });

  it("a takeover's read goes at once even from a dry bucket, all of it on credit", async () => {
    const bucket = new TokenBucket(100);
    const sent: string[] = [];
    expect(bucket.take()).toBe(true);
    const started = Date.now();
    await paidAtOnce(bucket, live, placeThenRead(20, sent));
    expect(sent).toEqual(['place', 'read']);
    expect(Date.now() - started).toBeLessThan(50);
    // 1 + 20 tokens owed at 100 a second.
    expect(bucket.msUntilAvailable()).toBeGreaterThanOrEqual(200);
  });
});
