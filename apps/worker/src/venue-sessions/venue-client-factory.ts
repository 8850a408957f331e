import { clientEgress, type EgressPlan, type VenueId, type VenueRegistry } from '@sts/domain';
import type { Logger } from '@sts/platform';
import {
  createVenueClient,
  type FrameCoalescer,
  type StoredVenueCredential,
  type VenueClient,
} from '@sts/venues';
import { countedVenueClient, type VenueRequestCounter } from './counted-venue-client';
import type { VenueAnswerTimes } from './venue-answer-times';

/**
 * Builds the VenueClient of one venue account by the venue's registry mode
 * (paper or live), sending from the account's egress under the plan (a
 * market-data client, of no account, from the plan's public egress).
 */
export class VenueClientFactory {
  constructor(
    private readonly venues: VenueRegistry,
    private readonly egressPlan: EgressPlan,
    private readonly env: Record<string, string | undefined>,
    private readonly logger: Logger,
    /** Shared by every client, so a burst's sends on one account share writes. */
    private readonly coalescer?: FrameCoalescer,
    /** Counts every venue request and 429 (the worker's metrics). */
    private readonly counter?: VenueRequestCounter,
    /** How long each venue takes to answer (the hedge's bound for an unanswered IOC). */
    private readonly answers?: VenueAnswerTimes,
  ) {}

  mode(venue: VenueId): 'paper' | 'live' {
    return this.venues[venue].mode;
  }

  /** `bookDepth`: levels per side in book events, for a reader that needs fewer. */
  create(
    venue: VenueId,
    credential: StoredVenueCredential,
    options: { bookDepth?: number } = {},
  ): Promise<VenueClient> {
    const { counter, answers } = this;
    const client = createVenueClient(this.venues[venue], credential, {
      env: this.env,
      logger: this.logger,
      egress: clientEgress(this.egressPlan, venue, credential.wallet),
      ...(this.coalescer ? { coalescer: this.coalescer } : {}),
      ...(counter?.venueRequestSent
        ? { onRequest: (sent) => counter.venueRequestSent?.(venue, sent) }
        : {}),
      ...options,
    });
    return counter
      ? client.then((made) => countedVenueClient(made, venue, counter, answers))
      : client;
  }
}
