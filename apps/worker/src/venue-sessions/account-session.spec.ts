import { TokenBucket, type BucketClock } from '@sts/budget-client';
import { clientOrderId, tradeTag } from '@sts/domain';
import { createLogger } from '@sts/platform';
import type { VenueFill } from '@sts/venues';
import { ScriptedVenue } from '../../test/support/scripted-venue';
import { AccountSession } from './account-session';

const TRADE = '6f1c2a4e-8a47-4c1e-9a3b-2f0d5e7c9b10';
/** The trade's maker order, whose fills are read. */
const MAKER_ORDER = clientOrderId(TRADE, { kind: 'maker', quoteNumber: 1 });

/** Time stands still: what a bucket would make a request wait is read, never waited out. */
const frozen: BucketClock = { now: () => 0, schedule: () => () => undefined };

const flushMicrotasks = async (): Promise<void> => {
  for (let i = 0; i < 10; i += 1) {
    await Promise.resolve();
  }
};

const missedFill = (ourId: string): VenueFill => ({
  exchange: 'paradex',
  symbol: 'BTC-USD-PERP',
  market: 'BTC',
  side: 'buy',
  price: '100000',
  size: '0.001',
  orderId: 'o-1',
  clientOrderId: ourId,
  fullyFilled: false,
  timestampMs: 1_500,
  fillId: 'missed-1',
  liquidity: 'maker',
});

async function listening(
  unpaidFillReads: boolean,
): Promise<{ venue: ScriptedVenue; bucket: TokenBucket; fills: string[] }> {
  const venue = new ScriptedVenue('paradex');
  venue.unpaidFillReads = unpaidFillReads;
  const session = new AccountSession(
    'paradex',
    '0xwallet',
    () => Promise.resolve(venue),
    createLogger('spec', 'silent'),
  );
  await session.connect();
  const bucket = new TokenBucket(4, { clock: frozen });
  const fills: string[] = [];
  session.listen(tradeTag(TRADE), {
    onFill: (fill) => fills.push(fill.fillId),
    onOrder: () => undefined,
    bucket,
  });
  return { venue, bucket, fills };
}

function sessionOver(venue: ScriptedVenue): AccountSession {
  return new AccountSession(
    'paradex',
    '0xwallet',
    () => Promise.resolve(venue),
    createLogger('spec', 'silent'),
  );
}

describe('AccountSession', () => {
  it("pays what connecting spends (a live client's credential check) from the opening trade's budget", async () => {
    const venue = new ScriptedVenue('paradex');
    venue.connectRequests = 1;
    const bucket = new TokenBucket(4, { clock: frozen });
    await sessionOver(venue).connect(bucket);
    expect(venue.connects).toBe(1);
    // The check took the bucket's token: the trade's first request waits for the next.
    expect(bucket.take()).toBe(false);

    const free = new ScriptedVenue('paradex');
    const untouched = new TokenBucket(4, { clock: frozen });
    await sessionOver(free).connect(untouched);
    expect(untouched.take()).toBe(true);
  });

  it("charges every request connecting sends to the opening trade, a live client's reads beyond its probe too", async () => {
    const venue = new ScriptedVenue('hyperliquid');
    venue.sendsFollowUpRequests = true;
    venue.connectRequests = 1;
    // ccxt asks Hyperliquid for the wallet's abstraction (20) before the probe's cancel (1).
    venue.connectSends = [20, 1];
    const bucket = new TokenBucket(4, { clock: frozen });
    await sessionOver(venue).connect(bucket);
    expect(venue.connects).toBe(1);
    // The probe took the bucket's token; the 20 beyond it are owed: 21 tokens at 4 a window.
    expect(bucket.msUntilAvailable()).toBe(Math.ceil((21 * 1100) / 4));
  });

  it('connects, the check unpaid, when the opening trade has no budget left to give', async () => {
    const venue = new ScriptedVenue('paradex');
    venue.connectRequests = 1;
    const bucket = new TokenBucket(0, { clock: frozen });
    bucket.close('trade ended');
    await sessionOver(venue).connect(bucket);
    expect(venue.connects).toBe(1);
  });

  it('over a client that reads fills unpaid, a trade keeps one request a second back to pay for them', async () => {
    const { venue, bucket } = await listening(true);
    expect(bucket.take()).toBe(true);
    // Re-quotes run at 3 of the trade's 4 a window.
    expect(bucket.msUntilAvailable()).toBe(Math.ceil(1100 / 3));
    // The read sent at once for the trade's fill is paid from what was kept, not into debt.
    venue.emit('unpaid', { clientOrderId: MAKER_ORDER, requests: 1, tokens: 1 });
    expect(bucket.msUntilAvailable()).toBe(Math.ceil(1100 / 3));
    // A second one in the same window has nothing kept left: into debt.
    venue.emit('unpaid', { clientOrderId: MAKER_ORDER, requests: 1, tokens: 1 });
    expect(bucket.msUntilAvailable()).toBe(Math.ceil((2 * 1100) / 3));
  });

  it('over a client with a fill stream, a trade spends its whole share on its own requests', async () => {
    const { bucket } = await listening(false);
    expect(bucket.take()).toBe(true);
    expect(bucket.msUntilAvailable()).toBe(Math.ceil(1100 / 4));
  });

  it('after a reconnect, reads the missed fills at once with the token kept back, though re-quotes spent the rest', async () => {
    const { venue, bucket, fills } = await listening(true);
    expect(bucket.take()).toBe(true);
    venue.emit('connection', {
      state: 'reconnected',
      atMs: 2_000,
      disconnectedAtMs: 1_000,
      recoverFromMs: 900,
    });
    // Within microtasks: it waits for no token (nor for the 1.5 s a dry bucket gets).
    const read = await venue.waitFor('fillsSince', 10);
    expect(read.args).toEqual({ timestampMs: 900 });
    read.answer([missedFill(MAKER_ORDER)]);
    await flushMicrotasks();
    expect(fills).toEqual(['missed-1']);
    // The kept token is spent: a fill read now goes into debt.
    expect(bucket.takeKept()).toBe(false);
  });
});
