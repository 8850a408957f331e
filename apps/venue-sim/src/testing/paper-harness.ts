import { PaperVenueClient, type ConformanceDriver, type ConformanceSetup } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import { SimControl } from './sim-control';

const RATE_LIMIT_PER_S = 100;
/** The clients' answer timeout, so the lost-answer cases wait about a second, not five. */
const REQUEST_TIMEOUT_MS = 1_000;
/** A lost answer's hold: past the client's timeout, ending well within a second of the expiry. */
const HOLD_MS = REQUEST_TIMEOUT_MS + 500;

/**
 * The conformance harness of a paper venue: a private simulator on a free
 * port in manual-step mode (the book moves only when the suite says so), and
 * clients that speak to it over the real protocol.
 */
export function paperConformanceSetup(
  venue: string,
  symbol: string,
  seed: number,
  options: { orderEntry?: 'socket' | 'http' } = {},
): ConformanceSetup {
  let sim: RunningVenueSim | undefined;
  return {
    capabilities: { trade: true, dropStream: true, rateLimit: true, loseAnswer: true },
    start: async () => {
      // A roomier limit than the venue's own, so the suite's quick sequence of
      // calls stays under it; the 429 test bursts past whatever it is.
      const running = await startVenueSim({
        seed,
        tickMs: 0,
        rateLimits: { [venue]: RATE_LIMIT_PER_S },
      });
      sim = running;
      const control = new SimControl(running.url);
      const baseUrl = `${running.url}/venues/${venue}`;
      return {
        symbol,
        rateLimitPerS: RATE_LIMIT_PER_S,
        createClient: async (account) => {
          const client = new PaperVenueClient({
            venue,
            baseUrl,
            credentials: {
              apiKey: `key-${account}`,
              apiSecret: `secret-${account}`,
              wallet: `0x${account}`,
            },
            reconnect: { initialMs: 50, maxMs: 400 },
            requestTimeoutMs: REQUEST_TIMEOUT_MS,
            ...(options.orderEntry ? { orderEntry: options.orderEntry } : {}),
          });
          await client.connect();
          return client;
        },
        driver: simDriver(control, venue, HOLD_MS, paperRateLimit(control, venue)),
      };
    },
    stop: async () => {
      await sim?.stop();
    },
  };
}

/** How a harness lowers its venue's limit for the 429 case's burst, and puts it back. */
export interface RateLimitKnob {
  set(perSecond: number): Promise<void>;
  restore(): Promise<void>;
}

/** The paper protocol's per-second limit, back to the harness's roomy one after. */
const paperRateLimit = (control: SimControl, venue: string): RateLimitKnob => ({
  set: async (perSecond) => {
    await control.setRateLimit(venue, perSecond);
  },
  restore: async () => {
    await control.setRateLimit(venue, RATE_LIMIT_PER_S);
  },
});

/**
 * The conformance driver of a simulated venue, whichever protocol the client
 * speaks: one step of the world, a trade by another trader, dropped sockets,
 * lost answers held `holdMs` (a hold, not a cut: the suite's client keeps
 * its stream either way), and the venue's limit through `rateLimit`.
 */
export function simDriver(
  control: SimControl,
  venue: string,
  holdMs: number,
  rateLimit: RateLimitKnob,
): ConformanceDriver {
  return {
    advance: async () => {
      await control.step(1);
    },
    trade: async (tradeSymbol, side, size, price) => {
      await control.trade(venue, tradeSymbol, side, size, price);
    },
    dropStream: async (blockMs) => {
      await control.dropSockets(venue, blockMs);
    },
    loseNextAnswer: async (op, at) => {
      await control.loseNext(venue, { op, at, then: 'hang', hangMs: holdMs });
    },
    endHoldsAt: async (atMs) => {
      await control.releaseHeld(venue, atMs);
    },
    setRateLimit: (perSecond) => rateLimit.set(perSecond),
    restoreRateLimit: () => rateLimit.restore(),
  };
}
