import { LatencyRecorder } from '../metrics/latency-recorder';

/** Below this, an unanswered IOC is never in doubt: the floor a venue on a LAN (the paper venues) gets. */
export const MIN_ANSWER_EXPECTED_MS = 250;
/** Above this, an unanswered IOC is in doubt however slowly its venue usually answers. */
export const MAX_ANSWER_EXPECTED_MS = 1_000;
/** The answers a venue's estimate is taken over: the newest ones, so it follows the venue. */
const WINDOW = 32;

/** One venue's newest answer times (ms), and the bound they give (worked out once per new answer). */
class AnswerWindow {
  private readonly answers = new LatencyRecorder(WINDOW);
  private expected = MIN_ANSWER_EXPECTED_MS;
  private stale = false;

  record(ms: number): void {
    this.answers.record(ms);
    this.stale = true;
  }

  /** Twice the 90th percentile of the window, within the bounds. */
  expectedMs(): number {
    if (this.stale) {
      const bound = Math.ceil(2 * this.answers.percentile(90));
      this.expected = Math.min(MAX_ANSWER_EXPECTED_MS, Math.max(MIN_ANSWER_EXPECTED_MS, bound));
      this.stale = false;
    }
    return this.expected;
  }
}

/**
 * How long each venue takes to answer this worker's requests, and so how
 * long a hedge's IOC may go unanswered before its fate counts as in doubt
 * (and the trade takes its maker order down). A fixed 250 ms suits the
 * paper venues; a live venue across the internet answers an order in 100 to
 * 400 ms as a matter of course, and a fixed bound would pull the maker order
 * on every hedge there (a cancel and a new placement per fill, the queue
 * place lost). The bound is twice what the venue's newest answers took at
 * the 90th percentile, never under 250 ms nor over 1 s, so a venue that
 * hangs is still noticed within a second. Only answers count: a request
 * that failed without one (a lost answer, a dropped socket) says nothing of
 * the venue's pace, and would train the bound up to the hang it must catch.
 */
export class VenueAnswerTimes {
  private readonly windows = new Map<string, AnswerWindow>();

  record(venue: string, ms: number): void {
    let window = this.windows.get(venue);
    if (!window) {
      window = new AnswerWindow();
      this.windows.set(venue, window);
    }
    window.record(ms);
  }

  /** The bound for an IOC on `venue`: 250 ms until the venue has answered anything. */
  expectedMs(venue: string): number {
    return this.windows.get(venue)?.expectedMs() ?? MIN_ANSWER_EXPECTED_MS;
  }

  /** Every venue that has answered, with its bound (the worker's metrics). */
  bounds(): Array<{ venue: string; expectedMs: number }> {
    return [...this.windows].map(([venue, window]) => ({ venue, expectedMs: window.expectedMs() }));
  }
}
