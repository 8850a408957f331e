import Big from 'big.js';
import type { TokenBucket } from '@sts/budget-client';
import { divide, formatDecimal } from '@sts/domain';
import { marginBalanceOf } from '@sts/venues';
import type { AmendableTerms, TradeRecord } from '../trades/trade-record';
import type { LegMarket } from './market-view';
import { desiredQuote } from './quoting/desired-quote';
import type { TradeLegs } from './trade-legs';

interface MarginLeg {
  role: 'maker' | 'hedge';
  bucket: TokenBucket | null;
  leg: LegMarket;
}

/**
 * The pre-flight checks after both legs are open (credentials, reachability
 * and the market listing were checked by opening them): the market is live
 * (both books two-sided), the target makes at least one acceptable order, and
 * each account has the margin the full position needs at the venue's maximum
 * leverage, in the market's margin asset (venues list every asset an account
 * holds, each in its own units: only the margin asset's balance counts).
 * Returns the failure_reason of a rejection, or null; `transient`
 * when the venue may be back shortly (no live book, balances unreadable).
 */
export interface PreflightFailure {
  reason: string;
  transient: boolean;
}

export async function preflightChecks(
  record: TradeRecord,
  terms: AmendableTerms,
  legs: TradeLegs,
  buckets: { maker: TokenBucket; hedge: TokenBucket | null },
): Promise<PreflightFailure | null> {
  const failure = await firstFailure(record, terms, legs, buckets);
  if (failure === null) {
    return null;
  }
  return typeof failure === 'string' ? { reason: failure, transient: false } : failure;
}

async function firstFailure(
  record: TradeRecord,
  terms: AmendableTerms,
  legs: TradeLegs,
  buckets: { maker: TokenBucket; hedge: TokenBucket | null },
): Promise<string | PreflightFailure | null> {
  const market = legs.market;
  if (market.quoteInputs() === null) {
    return {
      reason: `market ${record.market} has no live two-sided book on ${record.makerExchange} and ${record.hedgeExchange}`,
      transient: true,
    };
  }
  const sizing = desiredQuote(market, terms, new Big(0), { quoteMode: 'default' });
  if (sizing.kind === 'too_small') {
    return `target_size ${formatDecimal(terms.targetSize)} is below the smallest order both venues accept`;
  }
  const mid = market.makerMid();
  if (mid === null) {
    return {
      reason: `market ${record.market} has no live book on ${record.makerExchange}`,
      transient: true,
    };
  }
  const notional = terms.sizeType === 'notional' ? terms.targetSize : terms.targetSize.times(mid);
  const legsToCheck: MarginLeg[] = [
    { role: 'maker', bucket: buckets.maker, leg: market.makerMarket },
    { role: 'hedge', bucket: buckets.hedge, leg: market.hedgeMarket },
  ];
  for (const { role, bucket, leg } of legsToCheck) {
    let balances;
    try {
      balances = await legs.balances(role, bucket);
    } catch (error) {
      return {
        reason: `${leg.venue} balances unavailable: ${error instanceof Error ? error.message : String(error)}`,
        transient: true,
      };
    }
    const asset = leg.marginAsset ?? 'margin asset';
    const margin = leg.marginAsset ? marginBalanceOf(balances, leg.marginAsset) : undefined;
    const available = new Big(margin?.available ?? 0);
    const required = divide(notional, new Big(leg.maxLeverage ?? 1)).round(2, Big.roundUp);
    if (available.lt(required)) {
      return `insufficient margin on ${leg.venue}: ${formatDecimal(available)} ${asset} available, ${formatDecimal(required)} required`;
    }
  }
  return null;
}
