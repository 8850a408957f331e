/**
 * How long a market stays armed after its last order of ours closed: a
 * re-quote's cancel and placement leave it without an order for a moment,
 * and a market pruned then would have its next placement wait for an
 * arming of its own (`cover`) before it is sent.
 */
export const RESTING_MARKET_LINGER_MS = 60_000;

/**
 * The markets where an order of this client may rest: a per-market dead-man
 * switch (Aster's `countdownCancelAll`, 10 of A1 a market every third of the
 * timeout) arms these and no others. A post-only placement holds its market
 * from the moment it is sent until the order is known never to have rested
 * (the venue refused it) or to have closed (a final state seen on the stream,
 * in a read or in a cancel's outcome), and the market lingers `lingerMs`
 * after its last such order closed. A placement whose answer was lost holds
 * its market until the order is seen: an order that may rest is never left
 * without its countdown. IOCs never rest and hold nothing.
 */
export class RestingMarkets {
  /** Our client ids not known closed, by ccxt market. */
  private readonly open = new Map<string, Set<string>>();
  /** The market of each client id held. */
  private readonly marketOf = new Map<string, string>();
  /** When each market's last held order closed, while it lingers. */
  private readonly idleSince = new Map<string, number>();

  constructor(
    private readonly lingerMs = RESTING_MARKET_LINGER_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A post-only placement of `clientOrderId` on `unified` is being sent. */
  placing(unified: string, clientOrderId: string): void {
    this.marketOf.set(clientOrderId, unified);
    this.idleSince.delete(unified);
    let ids = this.open.get(unified);
    if (!ids) {
      ids = new Set();
      this.open.set(unified, ids);
    }
    ids.add(clientOrderId);
  }

  /** The order is known closed, or never placed (a refusal): it no longer holds its market. */
  settled(clientOrderId: string): void {
    const unified = this.marketOf.get(clientOrderId);
    if (unified === undefined) {
      return;
    }
    this.marketOf.delete(clientOrderId);
    const ids = this.open.get(unified)!;
    ids.delete(clientOrderId);
    if (ids.size === 0) {
      this.open.delete(unified);
      this.idleSince.set(unified, this.now());
    }
  }

  /** The markets an order of this client may rest on now, and those lingering after their last. */
  markets(): string[] {
    const now = this.now();
    for (const [unified, sinceMs] of this.idleSince) {
      if (now - sinceMs >= this.lingerMs) {
        this.idleSince.delete(unified);
      }
    }
    return [...this.open.keys(), ...this.idleSince.keys()];
  }
}
