import type Big from 'big.js';
import type { TradeLedger, TradeStatus } from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { VenueFill } from '@sts/venues';
import type { LogEntry } from '@sts/contracts';
import type { StatusChange, TradeJournal } from '../execution-log/trade-journal';
import type { AmendableTerms, TradeRecord } from '../trades/trade-record';
import type { FastMoveWatch } from './fast-move-watch';
import type { OpenTrade } from './open-trade';
import type { RequoteTiming } from './quoting/requote-timing';
import type { Halt } from './runner-services';
import type { StepRank } from './step-scheduler';
import type { TradeBudget } from './trade-budget';
import type { TradePhase } from './trade-phase';

/** The journal's part a trade writes through (TradeJournal on a worker). */
export type TradeWrites = Pick<
  TradeJournal,
  'append' | 'changeStatus' | 'idle' | 'written' | 'close'
>;

/** A status change as the trade asks for it: from whatever status it is in. */
export type StatusRequest = Omit<StatusChange, 'from' | 'to'>;

/**
 * A trade as its loop, feed, maker take-down, quote cycle and ending see it
 * (TradeState): everything readable, and every change a named request that
 * TradeState carries out. Nothing here can be assigned from outside.
 */
export interface TradeView {
  readonly tradeId: string;
  readonly tradeTag: string;
  readonly record: TradeRecord;
  readonly journal: TradeWrites;
  readonly budget: TradeBudget;
  readonly guard: FastMoveWatch;
  readonly abort: AbortController;
  readonly requoteTiming: RequoteTiming;
  /** The fold of the trade's execution log (TradeLedger): what it filled and hedged. */
  readonly ledger: TradeLedger;
  /** Maker fills since the amendment in force: the trade completes on one. */
  readonly fillsSinceAmendment: number;
  readonly log: Logger;
  readonly phase: TradePhase;
  readonly status: TradeStatus;
  readonly terms: AmendableTerms;
  readonly open: OpenTrade | null;
  /** An operator's halt (maintenance, kill switch) in force on the trade's venues. */
  readonly halt: Halt | null;
  /** The maker or hedge venue refused a request as halted: paused until it answers again. */
  readonly venueHalt: Halt | null;
  readonly haltInForce: Halt | null;
  readonly filledSize: Big;
  readonly epoch: string;
  now(): number;
  mayTouchVenue(): boolean;
  /** The lease is trusted but unproven lately: no maker order may rest (lease-trust.ts). */
  leaseInDoubt(): boolean;
  /** True once the venues may be touched again after a lapse of trust; false once closed here. */
  untilTrusted(): Promise<boolean>;
  wake(rank?: StepRank): void;
  wakeAfterReads(): void;
  /** The one way the money path changes the trade (TradeState.apply). */
  apply(entries: readonly LogEntry[]): Promise<void>;
  changeStatus(to: TradeStatus, request?: StatusRequest): Promise<void>;
  onMakerFill(fill: VenueFill): void;
  fail(reason: string): void;
  reachTarget(): void;
  beginEnding(): void;
  venueHalted(exchange: string): void;
  venueAnswers(): void;
}
