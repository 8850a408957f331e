import Big from 'big.js';
import { distributionOf } from '@sts/domain';
import type { TradeQualityLog } from '@sts/persistence';
import { fillQualities, type FillQuality } from './fill-quality';
import {
  byHorizon,
  presentDistribution,
  slippageGoodForTrader,
  type ByHorizon,
  type DistributionView,
} from './quality.presenter';

export const QUALITY_GROUPS = ['venue', 'market', 'side'] as const;
export type QualityGroupBy = (typeof QUALITY_GROUPS)[number];

/** One group of GET /quality: its maker fills' markouts and their hedges' slippage. */
export interface QualityGroupView {
  /** The maker venue, the trade's market, or the maker fill's side (buy, sell). */
  group: string;
  fills: number;
  markout_bps: ByHorizon<DistributionView>;
  hedge_slippage_bps: DistributionView;
}

/** The window, by the venue's clock of each maker fill: [fromMs, toMs). */
export interface QualityWindow {
  fromMs: number;
  toMs: number;
}

interface GroupSamples {
  fills: number;
  markouts: Map<number, Big[]>;
  slippages: Big[];
}

const groupOf = (groupBy: QualityGroupBy, market: string, { fill }: FillQuality): string => {
  switch (groupBy) {
    case 'venue':
      return fill.exchange;
    case 'market':
      return market;
    case 'side':
      return fill.side;
  }
};

/**
 * The maker fills of the logs that fall in the window (each once), grouped:
 * per group and horizon the distribution of the markouts sampled, and the
 * distribution of the slippage of the hedges those fills caused (each hedge
 * outcome with a slippage one observation, unweighted by size; positive when
 * good for the trader). Groups in order of their name.
 */
export function qualityReport(
  logs: readonly TradeQualityLog[],
  window: QualityWindow,
  groupBy: QualityGroupBy,
): QualityGroupView[] {
  const groups = new Map<string, GroupSamples>();
  for (const log of logs) {
    const fills = fillQualities(log.entries.map(({ entry }) => entry)).filter(
      ({ fill }) => fill.timestamp_ms >= window.fromMs && fill.timestamp_ms < window.toMs,
    );
    for (const quality of fills) {
      const key = groupOf(groupBy, log.market, quality);
      const samples: GroupSamples = groups.get(key) ?? {
        fills: 0,
        markouts: new Map(),
        slippages: [],
      };
      samples.fills += 1;
      for (const [horizon, markout] of quality.markouts) {
        const sampled = samples.markouts.get(horizon) ?? [];
        sampled.push(new Big(markout.bps));
        samples.markouts.set(horizon, sampled);
      }
      for (const hedge of quality.hedges) {
        if (hedge.slippage_bps !== null) {
          samples.slippages.push(slippageGoodForTrader(hedge.slippage_bps));
        }
      }
      groups.set(key, samples);
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
    }));
}
