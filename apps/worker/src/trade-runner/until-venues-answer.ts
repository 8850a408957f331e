import { sleep } from '@sts/platform';
import { LeaseLostError } from '../execution-log/trade-journal';
import type { TradeState } from './trade-state';

/**
 * What an executing trade needs of its venues (opening them, reading them
 * back) cannot be given up: it is retried until it works, while the trade's
 * lease is trusted; a lost lease ends it (LeaseLostError).
 */
export async function untilVenuesAnswer<T>(
  trade: TradeState,
  what: string,
  work: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    if (!trade.mayTouchVenue() && !(await trade.untilTrusted())) {
      throw new LeaseLostError(trade.tradeId);
    }
    try {
      return await work();
    } catch (error) {
      if (error instanceof LeaseLostError) {
        throw error;
      }
      trade.log.warn({ err: error, attempt }, `could not ${what}; retrying`);
      await sleep(Math.min(250 * attempt, 3_000));
    }
  }
}
