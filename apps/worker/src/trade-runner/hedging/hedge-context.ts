import type Big from 'big.js';
import type { TokenBucket } from '@sts/budget-client';
import type { MakerLeg, PricedFill, Side, SpreadType } from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { VenueClient } from '@sts/venues';
import type { MonotonicClock } from '../../clock';
import type { LogEntry } from '@sts/contracts';
import type { LegMarket, MarketView } from '../market-view';

/** The hedge leg: the account that takes the hedges, its market and its timeout. */
export interface HedgeVenue {
  client: VenueClient;
  leg: LegMarket;
  side: Side;
  /** hedge_timeout_ms of the venue registry. */
  timeoutMs: number;
  /** Where the venue bounds no request: how long a lost IOC may still land (WORKER_UNBOUNDED_REQUEST_WAIT_MS). */
  unboundedRequestWaitMs: number;
  /** How long an IOC may go unanswered before the hedge's fate counts as in doubt (VenueAnswerTimes). */
  answerExpectedMs(): number;
}

/** Everything a hedge needs from its trade. */
export interface HedgeContext {
  tradeId: string;
  makerLeg: MakerLeg;
  venue: HedgeVenue;
  market: MarketView;
  coarserTickSize: Big;
  maxSlippage(): Big;
  spreadType(): SpreadType;
  /** Null when the hedge venue does not share its account limit (hedges are not metered). */
  bucket: TokenBucket | null;
  clock: MonotonicClock;
  /**
   * False while the lease is not trusted (a renewal held up) and once it is
   * lost: the new owner reconciles, this worker touches nothing.
   */
  mayTouchVenue(): boolean;
  /** Resolves true once the lease is trusted again, false once it is lost (TradeView.untilTrusted). */
  untilTrusted(): Promise<boolean>;
  /**
   * The hedge's entries as they happen (its IOCs' answers come later than the
   * call that sent them): the trade applies them (TradeState.apply), which
   * logs them and reads from a hedge_outcome whether the trade fails.
   */
  emit(entries: LogEntry[]): void;
  /** The hedge venue refused an attempt as halted: no further maker fill should come meanwhile. */
  onVenueHalted(): void;
  /** Hedger.inDoubt changed. */
  onDoubtChanged(): void;
  /** An attempt is over: `size` was in flight, `filled` of it filled. */
  settle(size: Big, filled: Big): void;
  /** A retry takes `size` of the unhedged size in flight again. */
  reserve(size: Big): void;
  /**
   * A hedge ended short: the maker fills it did not hedge go back, oldest
   * first, to be covered (and priced) by the hedge that takes them next.
   */
  uncover(fills: readonly PricedFill[]): void;
  /** An attempt's answer was lost (+1) or its fate is settled (-1): see Hedger.inDoubt. */
  doubt(change: 1 | -1): void;
  logger: Logger;
}
