import Big from 'big.js';
import fc from 'fast-check';
import { applyEntry, emptyLedger, foldEntries, type TradeLedger } from '@sts/domain';
import type { VenueFill } from '@sts/venues';
import type { LogEntry } from '@sts/contracts';
import {
  LOT,
  ModelHedgeVenue,
  modelHedger,
  script,
  type Script,
} from '../../test/support/model-hedge-venue';
import { missingEntries } from '../recovery/reconcile-trade';
import type { Hedger } from '../trade-runner/hedging/hedger';
import { makerFillEntry } from './fill-entries';

/**
 * The execution log is the trade's state. A trade's hedges run against a
 * model venue (fills, refusals, lost answers, held and queued requests,
 * failed look-ups, on a fake clock) while maker fills come; at a generated
 * moment its worker may die and a new owner take it over as a worker does:
 * it waits until the dead worker's requests can no longer land, replays the
 * log, adds what the venues show and the log lacks through the same fold,
 * and hedges the rest. At every prefix of the written log that anyone can
 * see (the end of each synchronous step: a crash or a takeover comes between
 * steps, never inside one), folding it from nothing gives the ledger the
 * live run held then, and the owner's hedger (which sizes every hedge)
 * counted the same maker fills and hedge fills. At the end the ledger's
 * hedged size is what the venue filled.
 */

// 150 scripts on a fake clock, some with a takeover: about 20 s on a quiet machine.
jest.setTimeout(180_000);

/** Long enough that no request of a dead worker can still land (lifetime + margin + a queue's hold). */
const DEAD_REQUESTS_SETTLE_MS = 7_000;

interface Scenario extends Script {
  takeoverAtMs: number | null;
}

const scenario: fc.Arbitrary<Scenario> = fc
  .tuple(script, fc.option(fc.integer({ min: 0, max: 6_000 }), { nil: null }))
  .map(([base, takeoverAtMs]) => ({ ...base, takeoverAtMs }));

/** What a prefix was seen as: the ledger then, and what the owner's hedger counted then. */
interface Seen {
  length: number;
  ledger: TradeLedger;
  hedgerMakerFilled: string;
  hedgerHedged: string;
}

/** A ledger as plain values: equal ledgers print equal. */
const plain = (ledger: TradeLedger) => ({
  makerFills: ledger.makerFills.map((fill) => [
    fill.fillId,
    fill.price.toFixed(),
    fill.size.toFixed(),
    fill.timestampMs,
  ]),
  fillIds: [...ledger.fillIds].sort(),
  makerFilled: ledger.makerFilled.toFixed(),
  makerNotional: ledger.makerNotional.toFixed(),
  hedged: ledger.hedged.toFixed(),
  hedgeOrderIds: [...ledger.hedgeOrderIds].sort(),
  markouts: [...ledger.markouts].sort(),
  chunkStarted: ledger.chunkStarted,
  chunkCompleted: ledger.chunkCompleted,
  hedgeFailure: ledger.hedgeFailure,
  entries: ledger.entries,
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One trade's run: its log, its live ledger, its owners. */
class TradeRun {
  readonly log: LogEntry[] = [];
  readonly seen: Seen[] = [];
  readonly makerVenueFills: VenueFill[] = [];
  ledger = emptyLedger();
  owner = 1;
  hedger: Hedger;
  /** False between a worker's death and its successor's first hedge. */
  live = true;
  private checkQueued = false;

  constructor(readonly venue: ModelHedgeVenue) {
    this.hedger = this.hedgerOf(1);
  }

  /** A worker's hedger: its entries are written while it owns the trade (the journal's fence). */
  hedgerOf(owner: number): Hedger {
    return modelHedger(this.venue, {
      emit: (entries) => this.apply(owner, entries),
      mayTouchVenue: () => this.owner === owner,
      untilTrusted: () => Promise.resolve(this.owner === owner),
    });
  }

  /** TradeState.apply: folded into the live ledger and written, by the owner only. */
  apply(owner: number, entries: readonly LogEntry[]): void {
    if (owner !== this.owner) {
      return;
    }
    for (const entry of entries) {
      this.ledger = applyEntry(this.ledger, entry);
      this.log.push(entry);
    }
    if (!this.checkQueued) {
      this.checkQueued = true;
      queueMicrotask(() => this.noteStep());
    }
  }

  /** The end of a synchronous step: the prefix written so far and the state then. */
  private noteStep(): void {
    this.checkQueued = false;
    this.seen.push({
      length: this.log.length,
      ledger: this.ledger,
      hedgerMakerFilled: this.hedger.makerFilled.toFixed(),
      hedgerHedged: this.hedger.hedged.toFixed(),
    });
  }

  /** A maker fill on the maker venue; its owner's feed takes it if one is listening (trade-feed.ts). */
  makerFill(index: number, lots: number): void {
    const fill = makerVenueFill(index, LOT.times(lots));
    this.makerVenueFills.push(fill);
    if (!this.live || this.ledger.fillIds.has(fill.fillId)) {
      return;
    }
    const started = this.hedger.onMakerFill(fill.fillId, new Big(fill.price), new Big(fill.size));
    const entries: LogEntry[] = [makerFillEntry(fill, null)];
    if (started?.sent) {
      entries.push(started.sent);
    }
    this.apply(this.owner, entries);
  }

  /** The owner dies; the next takes the trade over as recovery/takeover.ts does. */
  async takeOver(): Promise<void> {
    this.owner += 1;
    this.live = false;
    await sleep(DEAD_REQUESTS_SETTLE_MS);
    this.ledger = foldEntries(this.log);
    const hedgeFills = await this.venue.fillsSince(0);
    const entries = missingEntries(
      this.ledger,
      { maker: [...this.makerVenueFills], hedge: hedgeFills },
      { hedgeExchange: 'paradex', hedgeSide: 'sell', makerQuote: null, hedgeQuote: null },
    );
    this.hedger = this.hedgerOf(this.owner);
    this.apply(this.owner, entries);
    this.hedger.restore(this.ledger.makerFills, this.ledger.hedged);
    this.live = true;
    const started = this.hedger.hedgeUnhedged(`recovery-${this.owner}`);
    if (started?.sent) {
      this.apply(this.owner, [started.sent]);
    }
  }
}

function makerVenueFill(index: number, size: Big): VenueFill {
  return {
    exchange: 'hyperliquid',
    symbol: 'BTC',
    market: 'BTC',
    side: 'buy',
    price: '100',
    size: size.toFixed(),
    orderId: `m${index}`,
    clientOrderId: `maker-${index}`,
    fullyFilled: true,
    timestampMs: Date.now(),
    fillId: `f${index}`,
    liquidity: 'maker',
  };
}

describe('the execution log is the trade state', () => {
  afterEach(() => jest.useRealTimers());

  it('folding the written log gives the live state at every prefix, across a takeover', async () => {
    let takeovers = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (generated) => {
        jest.useFakeTimers({ now: 1_700_000_000_000 });
        const run = new TradeRun(new ModelHedgeVenue(generated));
        let makerFilled = new Big(0);
        generated.makerFills.forEach((fill, i) => {
          makerFilled = makerFilled.plus(LOT.times(fill.lots));
          setTimeout(() => run.makerFill(i, fill.lots), fill.atMs);
        });
        if (generated.takeoverAtMs !== null) {
          takeovers += 1;
          setTimeout(() => void run.takeOver(), generated.takeoverAtMs);
        }
        await jest.advanceTimersByTimeAsync(150_000);

        expect(run.hedger.hedging).toBe(false);
        for (const seen of run.seen) {
          const replayed = foldEntries(run.log.slice(0, seen.length));
          expect(plain(replayed)).toEqual(plain(seen.ledger));
          expect(seen.hedgerMakerFilled).toBe(replayed.makerFilled.toFixed());
          expect(seen.hedgerHedged).toBe(replayed.hedged.toFixed());
        }
        const final = foldEntries(run.log);
        expect(plain(final)).toEqual(plain(run.ledger));
        expect(final.makerFilled.toFixed()).toBe(makerFilled.toFixed());
        expect(final.hedged.toFixed()).toBe(run.venue.filled.toFixed());
        expect(run.venue.filled.lte(makerFilled)).toBe(true);
        if (final.hedgeFailure === null) {
          expect(final.hedged.toFixed()).toBe(makerFilled.toFixed());
        }
      }),
      { numRuns: 150 },
    );
    // The generator reaches the takeover (fc.option draws null about one time in six).
    expect(takeovers).toBeGreaterThan(50);
  });
});
