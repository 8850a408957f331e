import { NOMINAL_STEP_MS } from '../engine/price-process';
import { RANDOM_FLOW, type InformedFlow } from '../engine/trade-flow';

/**
 * Who each venue's takers are, on the wire: `informed_taker_share` (0..1)
 * of them know the fair price's move `informed_horizon_ms` ahead and take
 * the side it favours, the others trade at random (`engine/trade-flow.ts`).
 * Set at start (`VENUE_SIM_FLOW`, `startVenueSim({ takerFlows })`) or
 * through `/control/venues/:venue/flow`; a world reset keeps them
 * (settings of the venue, like its rate limit).
 */
export interface TakerFlowSettings {
  informed_taker_share: number;
  informed_horizon_ms: number;
}

export const TAKER_FLOW_SETTINGS = ['informed_taker_share', 'informed_horizon_ms'] as const;
type TakerFlowSetting = (typeof TAKER_FLOW_SETTINGS)[number];

/** The farthest an informed taker sees: an hour of markouts would not need more. */
export const MAX_INFORMED_HORIZON_MS = 600_000;

export class InvalidTakerFlowError extends Error {
  readonly code = 'invalid_taker_flow';

  constructor(message: string) {
    super(message);
    this.name = 'InvalidTakerFlowError';
  }
}

/** The one owner of the venues' taker flow settings; changed only through `set`, all or nothing. */
export class TakerFlows {
  private readonly flows = new Map<string, InformedFlow>();

  constructor(
    venues: readonly string[],
    initial: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {},
  ) {
    for (const venue of venues) {
      this.flows.set(venue, RANDOM_FLOW);
    }
    for (const [venue, settings] of Object.entries(initial)) {
      this.set(venue, settings);
    }
  }

  /** The venue's flow as the engine reads it every tick. */
  of(venue: string): InformedFlow {
    return this.flows.get(venue) ?? RANDOM_FLOW;
  }

  describe(venue: string): TakerFlowSettings {
    const flow = this.flowOf(venue);
    return { informed_taker_share: flow.share, informed_horizon_ms: flow.horizonMs };
  }

  /**
   * Sets some of a venue's settings: the share a number from 0 to 1, the
   * horizon whole simulated steps of 100 ms up to MAX_INFORMED_HORIZON_MS;
   * one bad entry changes none.
   */
  set(venue: string, settings: Readonly<Record<string, unknown>>): TakerFlowSettings {
    let { share, horizonMs } = this.flowOf(venue);
    for (const [name, value] of Object.entries(settings)) {
      switch (name as TakerFlowSetting) {
        case 'informed_taker_share':
          share = validShare(value);
          break;
        case 'informed_horizon_ms':
          horizonMs = validHorizon(value);
          break;
        default:
          throw new InvalidTakerFlowError(
            `unknown flow setting ${name} (the settings: ${TAKER_FLOW_SETTINGS.join(', ')})`,
          );
      }
    }
    this.flows.set(venue, { share, horizonMs });
    return this.describe(venue);
  }

  private flowOf(venue: string): InformedFlow {
    const flow = this.flows.get(venue);
    if (!flow) {
      throw new InvalidTakerFlowError(`unknown venue ${venue}`);
    }
    return flow;
  }
}

function validShare(value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new InvalidTakerFlowError('informed_taker_share must be a number from 0 to 1');
  }
  return value;
}

function validHorizon(value: unknown): number {
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < NOMINAL_STEP_MS ||
    value > MAX_INFORMED_HORIZON_MS ||
    value % NOMINAL_STEP_MS !== 0
  ) {
    throw new InvalidTakerFlowError(
      `informed_horizon_ms must be a whole number of ${NOMINAL_STEP_MS} ms steps ` +
        `from ${NOMINAL_STEP_MS} to ${MAX_INFORMED_HORIZON_MS}`,
    );
  }
  return value;
}

/**
 * `VENUE_SIM_FLOW`: `<venue>.<setting>=<number>,…`, e.g.
 * `hyperliquid.informed_taker_share=0.5,hyperliquid.informed_horizon_ms=10000`.
 * Values are checked when the simulator starts (`TakerFlows`).
 */
export function parseTakerFlowSetting(
  text: string | undefined,
): Record<string, Record<string, number>> {
  const flows: Record<string, Record<string, number>> = {};
  for (const part of (text ?? '').split(',').map((item) => item.trim())) {
    if (part === '') {
      continue;
    }
    const match = /^([a-z0-9_-]+)\.([a-z_]+)=([0-9.]+)$/.exec(part);
    if (!match) {
      throw new InvalidTakerFlowError(`bad flow entry "${part}": <venue>.<setting>=<number>`);
    }
    const [, venue, name, value] = match;
    flows[venue] = { ...flows[venue], [name]: Number(value) };
  }
  return flows;
}
