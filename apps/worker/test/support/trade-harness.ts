import Big from 'big.js';
import pino from 'pino';
import {
  resolveFastMoveGuardSettings,
  transitionTrade,
  type TradeStatus,
  type VenueRegistry,
} from '@sts/domain';
import type { BookUpdate, VenueFill, VenueOrder } from '@sts/venues';
import type { StatusChange } from '../../src/execution-log/trade-journal';
import type { LogEntry } from '@sts/contracts';
import { FastMoveWatch } from '../../src/trade-runner/fast-move-watch';
import type { LoopServices } from '../../src/trade-runner/execution-loop';
import { MarketView } from '../../src/trade-runner/market-view';
import { TradeBudget } from '../../src/trade-runner/trade-budget';
import type { BookHandlers, TradeLegs } from '../../src/trade-runner/trade-legs';
import { TradeState } from '../../src/trade-runner/trade-state';
import type { TradeWrites } from '../../src/trade-runner/trade-view';
import type { AmendableTerms, TradeRecord } from '../../src/trades/trade-record';
import { AccountRestingOrders } from '../../src/venue-sessions/account-resting-orders';
import { MIN_ANSWER_EXPECTED_MS } from '../../src/venue-sessions/venue-answer-times';
import { ScriptedVenue } from './scripted-venue';

export const TRADE_ID = '5c0de000-0000-4000-8000-0000000000a1';
export const HEDGE_TIMEOUT_MS = 2_000;

/**
 * The journal as the trade writes it, in memory: every status change passes
 * the domain's transition table (as TradeJournal's does) and is kept in order.
 */
export class MemoryJournal implements TradeWrites {
  readonly entries: LogEntry[] = [];
  readonly changes: StatusChange[] = [];

  append(entries: LogEntry[]): Promise<void> {
    this.entries.push(...entries);
    return Promise.resolve();
  }

  changeStatus(change: StatusChange): Promise<void> {
    transitionTrade(change.from, change.to);
    this.entries.push(...(change.entries ?? []));
    this.changes.push(change);
    return Promise.resolve();
  }

  idle(): Promise<void> {
    return Promise.resolve();
  }

  written(): Promise<boolean> {
    return Promise.resolve(true);
  }

  /** Every write here lands at once: none is ever left unfinished by a close. */
  close(): boolean {
    return false;
  }

  get statuses(): TradeStatus[] {
    return this.changes.map((change) => change.to);
  }

  ofType(type: string): LogEntry[] {
    return this.entries.filter((entry) => entry.eventType === type);
  }
}

const rules = { tickSize: new Big('0.1'), lotSize: new Big('0.001'), minSize: new Big('0.001') };

export interface TradeHarness {
  trade: TradeState;
  maker: ScriptedVenue;
  hedge: ScriptedVenue;
  journal: MemoryJournal;
  /** The terms on the row (an amendment stores new ones here, then tells the trade). */
  row: { terms: AmendableTerms };
  /** Steps the scheduler was asked to run. */
  steps: { scheduled: number };
  ended: { count: number };
  makerBook(bid: string, ask: string): void;
  hedgeBook(bid: string, ask: string): void;
  /** A maker fill of `clientOrderId` delivered on the maker account's stream. */
  makerFill(clientOrderId: string, size: string, price: string, id: string): VenueFill;
}

let fillNumber = 0;

/**
 * One trade (long maker on hyperliquid, hedge on paradex, target 0.01 BTC,
 * spread condition that always holds) over two scripted venues, on jest's
 * clock, started straight into `active` with both books set: what its loop
 * does next is the spec's to see.
 */
export async function activeTrade(
  terms: Partial<AmendableTerms> = {},
  options: {
    makerReplaceCost?: number;
    /** The worker's own scheduler (shared by the harnesses of several trades), for a fake one. */
    scheduler?: LoopServices['scheduler'];
  } = {},
): Promise<TradeHarness> {
  const maker = new ScriptedVenue('hyperliquid', options.makerReplaceCost ?? 1);
  const hedge = new ScriptedVenue('paradex');
  const journal = new MemoryJournal();
  const row = {
    terms: {
      targetSize: new Big('0.01'),
      sizeType: 'base' as const,
      spread: {
        spreadType: 'absolute' as const,
        condition: 'gte' as const,
        targetSpread: new Big(-1000),
      },
      maxSlippage: new Big('0.01'),
      amendmentVersion: 0,
      ...terms,
    },
  };
  const steps = { scheduled: 0 };
  /** The fake scheduler: every step, however it was woken, runs from a microtask. */
  const runSoon = (step: () => void): void => {
    steps.scheduled += 1;
    queueMicrotask(step);
  };
  const ended = { count: 0 };
  const record: TradeRecord = {
    id: TRADE_ID,
    userId: 'user-1',
    market: 'BTC',
    makerLeg: 'long',
    longExchange: 'hyperliquid',
    shortExchange: 'paradex',
    makerExchange: 'hyperliquid',
    makerWallet: '0xmaker',
    hedgeExchange: 'paradex',
    hedgeWallet: '0xhedge',
    quoteMode: 'default',
    guard: resolveFastMoveGuardSettings({ quoteMode: 'default' }),
    rateBudget: 1_000,
    hedgeRateBudget: null,
    createdAt: new Date(),
  };
  const market = new MarketView(
    'long',
    { venue: 'hyperliquid', symbol: 'BTC', rules },
    { venue: 'paradex', symbol: 'BTC-USD-PERP', rules },
  );
  let books: BookHandlers | undefined;
  const log = pino({ level: 'silent' });
  const trade = new TradeState({
    services: {
      clock: { now: () => Date.now() },
      metrics: {
        recordFillToHedgeSent: () => undefined,
        recordHedgeEnded: () => undefined,
        recordRequote: () => undefined,
        recordRequoteHeld: () => undefined,
        recordLateMakerOrderCanceled: () => undefined,
      },
      coalescer: { whenSent: (done: () => void) => done() },
      answerTimes: { expectedMs: () => MIN_ANSWER_EXPECTED_MS },
      unboundedRequestWaitMs: 60_000,
      reader: { amendableTerms: () => Promise.resolve({ ...row.terms, cancelRequested: false }) },
      venues: { paradex: { hedgeTimeoutMs: HEDGE_TIMEOUT_MS } } as unknown as VenueRegistry,
      scheduler: options.scheduler ?? { schedule: runSoon, scheduleAfterReads: runSoon },
      openLegs: (_record, handlers): Promise<TradeLegs> => {
        books = handlers;
        return Promise.resolve(scriptedLegs(market, maker, hedge));
      },
    },
    lease: { tradeId: TRADE_ID, epoch: '1' },
    trust: { quoteUntilMs: Number.POSITIVE_INFINITY, validUntilMs: Number.POSITIVE_INFINITY },
    log,
    loaded: { record, status: 'validating', terms: row.terms, cancelRequested: false },
    journal,
    budget: new TradeBudget(TRADE_ID, 1_000, null, null, log),
    guard: new FastMoveWatch(record.guard, 'long'),
    halt: null,
    onEnded: () => (ended.count += 1),
  });
  const book = (update: { bid: string; ask: string }, symbol: string): BookUpdate => ({
    exchange: 'x',
    symbol,
    market: 'BTC',
    seq: 1,
    bestBid: update.bid,
    bestAsk: update.ask,
    bids: [{ price: update.bid, size: '10' }],
    asks: [{ price: update.ask, size: '10' }],
    timestampMs: Date.now(),
  });
  const harness: TradeHarness = {
    trade,
    maker,
    hedge,
    journal,
    row,
    steps,
    ended,
    makerBook: (bid, ask) => {
      if (market.applyMakerBook(book({ bid, ask }, 'BTC'))) {
        books?.onMakerMove(Date.now());
      }
    },
    hedgeBook: (bid, ask) => {
      if (market.applyHedgeBook(book({ bid, ask }, 'BTC-USD-PERP'))) {
        books?.onHedgeMove(Date.now());
      }
    },
    makerFill: (clientOrderId, size, price, id) => {
      fillNumber += 1;
      const fill: VenueFill = {
        exchange: 'hyperliquid',
        symbol: 'BTC',
        market: 'BTC',
        side: 'buy',
        price,
        size,
        orderId: `o-${fillNumber}`,
        clientOrderId,
        fullyFilled: false,
        timestampMs: Date.now(),
        fillId: id,
        liquidity: 'maker',
      };
      maker.emit('fill', fill);
      return fill;
    },
  };
  harness.makerBook('100', '100.5');
  harness.hedgeBook('101', '101.5');
  await trade.openLegs();
  trade.listen();
  await trade.changeStatus('active');
  trade.startRunning();
  return harness;
}

/** Legs over the two scripted venues: each routes the trade's own fills and orders to it. */
function scriptedLegs(market: MarketView, maker: ScriptedVenue, hedge: ScriptedVenue): TradeLegs {
  const unsubscribe: Array<() => void> = [];
  return {
    market,
    makerClient: maker,
    hedgeClient: hedge,
    makerAccountOrders: new AccountRestingOrders(),
    // The scripted venues take no batches.
    makerBatchWindow: () => null,
    makerBatchOpen: () => false,
    balances: (leg) => (leg === 'maker' ? maker : hedge).balances(),
    // The scripted venues keep no cumulative request budget.
    cumulativeHold: () => null,
    cumulativePollMs: null,
    listen: (tag, makerListener, hedgeListener) => {
      for (const [venue, listener] of [
        [maker, makerListener],
        [hedge, hedgeListener],
      ] as const) {
        unsubscribe.push(
          venue.on('fill', (fill: VenueFill) => {
            if (fill.clientOrderId.startsWith(tag)) {
              listener.onFill(fill);
            }
          }),
          venue.on('order', (order: VenueOrder) => {
            if (order.clientOrderId.startsWith(tag)) {
              listener.onOrder(order);
            }
          }),
        );
      }
    },
    close: () => unsubscribe.splice(0).forEach((stop) => stop()),
  };
}
