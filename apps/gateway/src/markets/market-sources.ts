import { publicEgress, VENUE_IDS } from '@sts/domain';
import { fetchVenueMarkets } from '@sts/venues';
import type { GatewayConfig } from '../config/load-gateway-settings';
import type { MarketSource } from './market-catalog';

/**
 * One market source per venue of the registry, paper or live as the registry
 * says. Market lists are public on every venue: no trader's credentials are
 * used to read them, and they are read from the egress plan's public egress.
 */
export function marketSourcesFor(config: GatewayConfig): MarketSource[] {
  const env = { VENUE_SIM_URL: config.settings.venueSimUrl };
  const egress = publicEgress(config.egressPlan);
  return VENUE_IDS.map((id) => ({
    venue: id,
    markets: () => fetchVenueMarkets(config.venues[id], { env, egress }),
  }));
}
