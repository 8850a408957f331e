import { SYSTEM_SCOPE, type VenueConfig, type VenueMode } from '@sts/domain';
import type { MaintenanceEntity } from '@sts/persistence';

/** One venue of the deployment as a trader needs to know it before trading there. */
export interface ExchangeView {
  exchange: string;
  /** `paper`: the simulator, no real money; `live`: the venue itself. */
  mode: VenueMode;
  maker_cap: number;
  cap_group: string;
  /** True when a trade's hedge on this venue draws on the same account limit. */
  shared_account_limit: boolean;
  hedge_timeout_ms: number;
  /** The venue's own maintenance flag. */
  maintenance: boolean;
  /** The venue or the system in maintenance, or the kill switch on: no trade starts on it now. */
  trading_halted: boolean;
}

/** The registry's venues in its order, with the operators' switches as they are now. */
export function presentExchanges(
  venues: readonly VenueConfig[],
  switches: { rows: readonly MaintenanceEntity[]; killSwitch: boolean },
): ExchangeView[] {
  const on = new Set(switches.rows.filter((row) => row.enabled).map((row) => row.exchange));
  const halted = switches.killSwitch || on.has(SYSTEM_SCOPE);
  return venues.map((venue) => ({
    exchange: venue.id,
    mode: venue.mode,
    maker_cap: venue.makerCap,
    cap_group: venue.capGroup,
    shared_account_limit: venue.sharedAccountLimit,
    hedge_timeout_ms: venue.hedgeTimeoutMs,
    maintenance: on.has(venue.id),
    trading_halted: halted || on.has(venue.id),
  }));
}
