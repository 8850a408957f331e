import { VENUE_IDS, type VenueConfig } from '@sts/domain';
import { PaperVenueClient } from '@sts/venues';
import type { GatewayConfig } from '../config/load-gateway-settings';
import type { MarketSource } from './market-catalog';

/** A paper venue's base URL: its registry endpoint, else its path on the simulator. */
export const paperVenueUrl = (venue: VenueConfig, venueSimUrl: string): string =>
  venue.endpoint ?? `${venueSimUrl.replace(/\/+$/, '')}/venues/${venue.id}`;

/**
 * One market source per venue of the registry. Market lists are public on
 * every venue, so the gateway reads them without any trader's credentials:
 * the paper client is built with an anonymous identity and never connects
 * its private streams.
 */
export function marketSourcesFor(config: GatewayConfig): MarketSource[] {
  return VENUE_IDS.map((id) => {
    const venue = config.venues[id];
    const client = new PaperVenueClient({
      venue: id,
      baseUrl: paperVenueUrl(venue, config.settings.venueSimUrl),
      credentials: { apiKey: 'market-data', apiSecret: 'market-data', wallet: 'market-data' },
      selfRegister: false,
    });
    return { venue: id, markets: () => client.markets() };
  });
}
