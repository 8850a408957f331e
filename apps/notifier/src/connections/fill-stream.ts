/** A fill frame with the execution-log sequence it carries. */
export interface SequencedFrame {
  sequence: number;
  frame: Buffer;
}

/** Live fills held while a subscription is checked and replayed; more than this is a slow consumer. */
export const MAX_HELD_FILLS = 256;

/**
 * One socket's fills subscription to one trade. Live fills that arrive while
 * the ownership is checked and the log is replayed from Postgres are held,
 * then sent after the replay. The replay and the stream overlap (an entry
 * committed before the replay's read may be published after it), so every
 * fill is sent once per sequence: the log's sequence is the fill's identity.
 */
export class FillStream {
  private held: SequencedFrame[] | null = [];
  private readonly sent = new Set<number>();

  constructor(readonly tradeId: string) {}

  get live(): boolean {
    return this.held === null;
  }

  /**
   * A live fill: the frame to write now, null when it was already sent or is
   * held, or 'overflow' when too many are held (the socket does not keep up).
   */
  offer(fill: SequencedFrame): Buffer | null | 'overflow' {
    if (this.held !== null) {
      if (this.held.length >= MAX_HELD_FILLS) {
        return 'overflow';
      }
      this.held.push(fill);
      return null;
    }
    return this.take(fill);
  }

  /** A replayed fill (the stream still holds live ones): the frame to write, null if already sent. */
  fromReplay(fill: SequencedFrame): Buffer | null {
    return this.take(fill);
  }

  /** The replay is written: the held fills it did not cover, and live from now on. */
  goLive(): Buffer[] {
    const held = this.held ?? [];
    this.held = null;
    return held.map((fill) => this.take(fill)).filter((frame): frame is Buffer => frame !== null);
  }

  private take(fill: SequencedFrame): Buffer | null {
    if (this.sent.has(fill.sequence)) {
      return null;
    }
    this.sent.add(fill.sequence);
    return fill.frame;
  }
}
