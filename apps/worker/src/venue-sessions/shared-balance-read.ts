import { performance } from 'node:perf_hooks';
import type { TokenBucket } from '@sts/budget-client';
import type { VenueBalance, VenueClient } from '@sts/venues';
import { paidAtOnce } from './paid-requests';

/**
 * How long after it was asked for one balance read of an account answers the
 * pre-flight of every trade on the account that asks. A desk starting twenty
 * trades on one wallet in a second reads its balances once, not twenty
 * times: one round trip off each later trade's time to market and nineteen
 * reads off the account's and the egress's limits (a Hyperliquid
 * `clearinghouseState` weighs 2 of the 1,200 a minute). The margin check is
 * a guard the venue repeats on every order; a balance a second older than
 * the trade serves it as well as one read after.
 */
export const SHARED_BALANCE_READ_MS = 1_000;

/**
 * The account's balance read that pre-flights share: joined while in flight,
 * reused for `SHARED_BALANCE_READ_MS` after it was asked for, paid by the
 * trade that asked first, at once, on credit: opening the account already
 * read the venue on credit (its cumulative budget), and where the trade's
 * pace is a share of a per-IP limit a minute (Hyperliquid: 36 a minute) that
 * debt takes longer to pay than the pre-flight may last. A start's reads are
 * less than a minute's pace, so its debt slows the trade's first quotes, not
 * the venue's minute. A failed read is never reused (the next asks again).
 */
export class SharedBalanceRead {
  private latest?: { askedAtMs: number; answer: Promise<VenueBalance[]> };

  constructor(private readonly now: () => number = () => performance.now()) {}

  read(client: VenueClient, bucket: TokenBucket | null): Promise<VenueBalance[]> {
    const latest = this.latest;
    if (latest && this.now() - latest.askedAtMs <= SHARED_BALANCE_READ_MS) {
      return latest.answer;
    }
    const answer = paidAtOnce(bucket, client, () => client.balances());
    const asked = { askedAtMs: this.now(), answer };
    this.latest = asked;
    answer.catch(() => {
      if (this.latest === asked) {
        this.latest = undefined;
      }
    });
    return answer;
  }
}
