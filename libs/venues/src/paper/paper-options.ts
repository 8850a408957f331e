import type { Logger } from '@sts/platform';
import type { FrameCoalescer } from '../common/frame-coalescer';
import type { PaperCredentials } from './protocol';

/** The settings of a PaperVenueClient: where the venue is, who signs, how long to wait. */
export interface PaperVenueClientOptions {
  venue: string;
  /** The venue's base URL on the simulator, e.g. http://127.0.0.1:7100/venues/paradex. */
  baseUrl: string;
  credentials: PaperCredentials;
  /**
   * How long an answer is awaited; also each order request's lifetime on the
   * venue (`expires_at_ms` = sent + this), so a lost answer settles soon after.
   */
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Levels per side in `book` events. */
  bookDepth?: number;
  reconnect?: { initialMs?: number; maxMs?: number };
  /** Register the API key with the simulator on connect (trust on first use). Default true. */
  selfRegister?: boolean;
  /**
   * Where orders go: `socket` (the default) sends them on the account's
   * signed WebSocket while it is up, HTTP otherwise; `http` always uses HTTP.
   */
  orderEntry?: 'socket' | 'http';
  logger?: Logger;
  /** Lets order frames sent in one burst share writes (see FrameCoalescer). */
  coalescer?: FrameCoalescer;
}
