import Big from 'big.js';
import type { TokenBucket } from '@sts/budget-client';
import { divide, formatDecimal } from '@sts/domain';
import type { VenueClient } from '@sts/venues';
import { paid } from '../recovery/venue-truth';
import type { TradeRecord } from '../trades/trade-record';
import type { LegMarket } from './market-view';
import { desiredQuote } from './quoting/desired-quote';
import type { TradeLegs } from './trade-legs';

interface MarginLeg {
  client: VenueClient;
  bucket: TokenBucket | null;
  leg: LegMarket;
}

/**
 * The pre-flight checks after both legs are open (credentials, reachability
 * and the market listing were checked by opening them): the market is live
 * (both books two-sided), the target makes at least one acceptable order, and
 * each account has the margin the full position needs at the venue's maximum
 * leverage. Returns the failure_reason of a rejection, or null.
 */
export async function preflightChecks(
  record: TradeRecord,
  legs: TradeLegs,
  buckets: { maker: TokenBucket; hedge: TokenBucket | null },
): Promise<string | null> {
  const market = legs.market;
  if (market.quoteInputs() === null) {
    return `market ${record.market} has no live two-sided book on ${record.makerExchange} and ${record.hedgeExchange}`;
  }
  const sizing = desiredQuote(market, record.terms, new Big(0), { quoteMode: 'default' });
  if (sizing.kind === 'too_small') {
    return `target_size ${formatDecimal(record.terms.targetSize)} is below the smallest order both venues accept`;
  }
  const mid = market.makerMid();
  if (mid === null) return `market ${record.market} has no live book on ${record.makerExchange}`;
  const notional =
    record.terms.sizeType === 'notional'
      ? record.terms.targetSize
      : record.terms.targetSize.times(mid);
  const legsToCheck: MarginLeg[] = [
    { client: legs.makerClient, bucket: buckets.maker, leg: market.makerMarket },
    { client: legs.hedgeClient, bucket: buckets.hedge, leg: market.hedgeMarket },
  ];
  for (const { client, bucket, leg } of legsToCheck) {
    let balances;
    try {
      balances = await paid(bucket, () => client.balances());
    } catch (error) {
      return `${leg.venue} balances unavailable: ${error instanceof Error ? error.message : String(error)}`;
    }
    const available = balances.reduce((sum, balance) => sum.plus(balance.available), new Big(0));
    const required = divide(notional, new Big(leg.maxLeverage ?? 1)).round(2, Big.roundUp);
    if (available.lt(required)) {
      return `insufficient margin on ${leg.venue}: ${formatDecimal(available)} available, ${formatDecimal(required)} required`;
    }
  }
  return null;
}
