import { RateLimitedError } from '../../errors';
import { itWhen, type SuiteContext } from '../suite-context';
import { sleep } from '@sts/platform';

/** The limit the 429 case sets for its burst (reads a second), where the driver can set one. */
const BURST_LIMIT_PER_S = 10;

/**
 * The venue's request limit. Where the driver sets it, the burst meets a
 * limit of a one-second window (a dialect's published per-minute pools are
 * squeezed into a second for it), so a retry-after of at most a second is
 * the venue's whole answer; a live venue run by hand with minute windows
 * would answer up to a minute, which this case does not claim to cover.
 */
export function limitsCases(ctx: SuiteContext): void {
  itWhen(ctx.capabilities.rateLimit)(
    'answers 429 with a retry-after past the request limit',
    async () => {
      const { harness } = ctx;
      const { driver } = harness;
      // Lowered for the burst where the venue allows it, so any client's
      // burst outpaces it; restored after.
      const limit = driver.setRateLimit ? BURST_LIMIT_PER_S : harness.rateLimitPerS!;
      const busy = await harness.createClient('rate-limit');
      await driver.setRateLimit?.(limit);
      try {
        // Twice the limit and more: even a burst that straddles two one-second
        // windows must see at least ten refusals.
        const burst = limit * 2 + 10;
        const limited: unknown[] = [];
        await Promise.all(
          Array.from({ length: burst }, () =>
            busy.openOrders().catch((error: unknown) => void limited.push(error)),
          ),
        );
        expect(limited.length).toBeGreaterThanOrEqual(10);
        for (const error of limited) {
          expect(error).toBeInstanceOf(RateLimitedError);
          expect((error as RateLimitedError).retryAfterMs).toBeGreaterThan(0);
          expect((error as RateLimitedError).retryAfterMs).toBeLessThanOrEqual(1_000);
        }
        // Waiting out the retry-after is enough to be served again (once more
        // if the burst's last window happened to be full without a refusal).
        const wait = (error: unknown) => sleep((error as RateLimitedError).retryAfterMs + 20);
        await wait(limited[limited.length - 1]);
        const served = await busy.openOrders().catch(async (error: unknown) => {
          expect(error).toBeInstanceOf(RateLimitedError);
          await wait(error);
          return busy.openOrders();
        });
        expect(served).toEqual([]);
      } finally {
        await driver.restoreRateLimit?.();
        await busy.close();
      }
    },
  );
}
