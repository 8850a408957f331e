import Big from 'big.js';
import { distributionOf } from '@sts/domain';
import type { TradeQualityLog } from '@sts/persistence';
import { earliestFill, fillQualities, type FillQuality } from './fill-quality';
import {
  arrivalSlippage,
  byHorizon,
  presentDistribution,
  slippageGoodForTrader,
  type ByHorizon,
  type DistributionView,
} from './quality.presenter';
import {
  addSpell,
  NO_QUOTING,
  presentQuoting,
  quotingSpells,
  type QuotingTotals,
  type QuotingView,
} from './quoting-quality';

export const QUALITY_GROUPS = ['venue', 'market', 'side'] as const;
export type QualityGroupBy = (typeof QUALITY_GROUPS)[number];

/** One group of GET /quality: its maker fills' markouts, their hedges' slippage, and its quoting. */
export interface QualityGroupView {
  /** The maker venue, the trade's market, or the maker side (buy, sell). */
  group: string;
  fills: number;
  markout_bps: ByHorizon<DistributionView>;
  hedge_slippage_bps: DistributionView;
  /** Each hedge's average against the hedge venue's mid when its first IOC went. */
  hedge_arrival_slippage_bps: DistributionView;
  /** From a trade's creation to its first maker fill, for the trades whose first fill is in the window. */
  time_to_first_fill_ms: DistributionView;
  /** The quoting spells that ended in the window against the fills in it. */
  quoting: QuotingView;
}

/** The window, by the venue's clock of each maker fill and the end of each quoting spell: [fromMs, toMs). */
export interface QualityWindow {
  fromMs: number;
  toMs: number;
}

interface GroupSamples {
  fills: number;
  markouts: Map<number, Big[]>;
  slippages: Big[];
  arrivalSlippages: Big[];
  firstFillMs: Big[];
  quoting: QuotingTotals;
}

const emptySamples = (): GroupSamples => ({
  fills: 0,
  markouts: new Map(),
  slippages: [],
  arrivalSlippages: [],
  firstFillMs: [],
  quoting: NO_QUOTING,
});

type Leg = { exchange: string; side: 'buy' | 'sell' };

const groupOf = (groupBy: QualityGroupBy, market: string, leg: Leg): string => {
  switch (groupBy) {
    case 'venue':
      return leg.exchange;
    case 'market':
      return market;
    case 'side':
      return leg.side;
  }
};

const inWindow = (window: QualityWindow, atMs: number): boolean =>
  atMs >= window.fromMs && atMs < window.toMs;

/**
 * The maker fills of the logs that fall in the window (each once) and the
 * quoting spells that ended in it, grouped: per group and horizon the
 * distribution of the markouts sampled; the distributions of the slippage
 * of the hedges those fills caused, against the decision and against the
 * arrival mid (each hedge outcome one observation, unweighted by size;
 * positive when good for the trader); the time to a trade's first fill; and
 * the quoting against the fills. Groups in order of their name.
 */
export function qualityReport(
  logs: readonly TradeQualityLog[],
  window: QualityWindow,
  groupBy: QualityGroupBy,
): QualityGroupView[] {
  const groups = new Map<string, GroupSamples>();
  const samplesOf = (key: string): GroupSamples => {
    const samples = groups.get(key) ?? emptySamples();
    groups.set(key, samples);
    return samples;
  };
  for (const log of logs) {
    const entries = log.entries.map(({ entry }) => entry);
    const fills = fillQualities(entries);
    fills
      .filter(({ fill }) => inWindow(window, fill.timestamp_ms))
      .forEach((quality) =>
        addFill(samplesOf(groupOf(groupBy, log.market, quality.fill)), quality),
      );
    const first = earliestFill(fills);
    if (first && inWindow(window, first.timestamp_ms)) {
      const samples = samplesOf(groupOf(groupBy, log.market, first));
      samples.firstFillMs.push(new Big(first.timestamp_ms - log.createdAt.getTime()));
    }
    for (const spell of quotingSpells(entries).filter(({ until_ms }) =>
      inWindow(window, until_ms),
    )) {
      const samples = samplesOf(groupOf(groupBy, log.market, spell));
      samples.quoting = addSpell(samples.quoting, spell);
    }
  }
  return [...groups]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([group, samples]) => ({
      group,
      fills: samples.fills,
      markout_bps: byHorizon((horizon) =>
        presentDistribution(distributionOf(samples.markouts.get(horizon) ?? [])),
      ),
      hedge_slippage_bps: presentDistribution(distributionOf(samples.slippages)),
      hedge_arrival_slippage_bps: presentDistribution(distributionOf(samples.arrivalSlippages)),
      time_to_first_fill_ms: presentDistribution(distributionOf(samples.firstFillMs)),
      quoting: presentQuoting(samples.quoting, samples.fills),
    }));
}

function addFill(samples: GroupSamples, quality: FillQuality): void {
  samples.fills += 1;
  for (const [horizon, markout] of quality.markouts) {
    const sampled = samples.markouts.get(horizon) ?? [];
    sampled.push(new Big(markout.bps));
    samples.markouts.set(horizon, sampled);
  }
  for (const hedge of quality.hedges) {
    if (hedge.outcome.slippage_bps !== null) {
      samples.slippages.push(slippageGoodForTrader(hedge.outcome.slippage_bps));
    }
    const arrival = arrivalSlippage(hedge);
    if (arrival !== null) {
      samples.arrivalSlippages.push(arrival);
    }
  }
}
