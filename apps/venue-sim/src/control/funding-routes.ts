import Big from 'big.js';
import { HttpFailure } from '../api/http-kit';
import { wireFunding } from '../api/wire-format';
import { ok, type ControlRoutes } from './control-kit';

/** The largest rate one interval may be given: 5 %, beyond any venue's cap. */
const MAX_RATE = new Big('0.05');

/**
 * Funding: settle a market now, set its rate, and read an account's
 * payments as the venue recorded them (what specs check results against).
 */
export function addFundingRoutes(routes: ControlRoutes): void {
  const { deps } = routes;
  routes
    .add('POST', '/control/venues/:venue/funding', (context) => {
      const raw = routes.body(context);
      const venue = deps.world().venue(routes.venueId(context));
      const symbol = symbolOf(raw['symbol']);
      const rate = raw['rate'] === undefined ? undefined : rateOf(raw['rate']);
      return ok({ funding: venue.settleFunding(symbol, undefined, rate).map(wireFunding) });
    })
    .add('POST', '/control/venues/:venue/funding-rate', (context) => {
      const raw = routes.body(context);
      const venue = deps.world().venue(routes.venueId(context));
      const market = venue.market(symbolOf(raw['symbol']));
      venue.funding.setRate(market.spec.symbol, rateOf(raw['rate']));
      return ok({ symbol: market.spec.symbol, rate: venue.funding.rateOf(market.spec).toFixed() });
    })
    .add('GET', '/control/venues/:venue/accounts/:wallet/funding', (context) => {
      const venue = deps.world().venue(routes.venueId(context));
      const since = Number(context.query.get('since') ?? 0);
      if (!Number.isFinite(since)) {
        throw new HttpFailure(400, 'invalid_request', 'since must be milliseconds');
      }
      const payments = venue.funding.paymentsOf(context.params['wallet'].toLowerCase(), since);
      return ok({ funding: payments.map(wireFunding) });
    });
}

function symbolOf(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 40) {
    throw new HttpFailure(400, 'invalid_request', 'symbol must be a venue symbol');
  }
  return value;
}

function rateOf(value: unknown): Big {
  if (typeof value !== 'string' || !/^-?\d{1,3}(\.\d{1,12})?$/.test(value)) {
    throw new HttpFailure(400, 'invalid_request', 'rate must be a decimal string');
  }
  const rate = new Big(value);
  if (rate.abs().gt(MAX_RATE)) {
    throw new HttpFailure(400, 'invalid_request', `rate must be within ±${MAX_RATE.toFixed()}`);
  }
  return rate;
}
