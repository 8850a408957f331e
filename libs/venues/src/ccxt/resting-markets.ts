/**
 * The markets where an order of this client may rest: a per-market dead-man
 * switch (Aster's `countdownCancelAll`, 10 of A1 a market every third of the
 * timeout) arms these and no others. A post-only placement holds its market
 * from the moment it is sent until the order is known never to have rested
 * (the venue refused it) or to have closed (a final state seen on the stream,
 * in a read or in a cancel's outcome). A placement whose answer was lost holds
 * its market until the order is seen: an order that may rest is never left
 * without its countdown. IOCs never rest and hold nothing.
 */
export class RestingMarkets {
  /** Our client ids not known closed, by ccxt market. */
  private readonly open = new Map<string, Set<string>>();
  /** The market of each client id held. */
  private readonly marketOf = new Map<string, string>();

  /** A post-only placement of `clientOrderId` on `unified` is being sent. */
  placing(unified: string, clientOrderId: string): void {
    this.marketOf.set(clientOrderId, unified);
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
    }
  }

  /** The markets an order of this client may rest on now. */
  markets(): string[] {
    return [...this.open.keys()];
  }
}
