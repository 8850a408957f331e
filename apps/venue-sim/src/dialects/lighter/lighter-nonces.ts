import { LighterError } from './lighter-errors';

/** How a skip-nonce transaction's nonce is judged (reading `skip_nonce_order`). */
export type SkipNonceOrder = 'increasing' | 'unused';

/** Nonces remembered for `unused`: below them, a nonce is refused. */
const REMEMBERED = 10_000;

const refused = (nonce: number, why: string) =>
  new LighterError(400, 21104, `invalid nonce: ${nonce} ${why}`);

/**
 * One API key's nonces (apidocs.lighter.xyz/docs/trading, "Handle Nonces"):
 * counted per key; a transaction the API refuses does not use its nonce, one
 * it accepts does (even an order the sequencer then cancels). Without
 * `SkipNonce` a transaction must carry the key's next nonce; with it, the
 * profile's `skip_nonce_order` says which nonces pass. A nonce is reserved
 * while its transaction executes (so two in flight cannot share one), used
 * once the venue accepts it, and given back when it refuses it.
 */
export class NonceBook {
  /** The highest nonce used; the key's registration (a ChangePubKey) used 0. */
  private last = 0;
  private readonly pending = new Set<number>();
  private readonly used = new Set<number>();
  private floor = 0;

  /** `nextNonce`: one above the highest nonce used or being used. */
  next(): number {
    return this.highest() + 1;
  }

  /** Takes a nonce for a transaction about to execute, or refuses it (21104). */
  reserve(nonce: number, skipNonce: boolean, order: SkipNonceOrder): void {
    const highest = this.highest();
    if (!skipNonce) {
      if (nonce !== highest + 1) {
        throw refused(nonce, `is not the next nonce (${highest + 1})`);
      }
    } else if (order === 'increasing') {
      if (nonce <= highest) {
        throw refused(nonce, `is not above the last nonce used (${highest})`);
      }
    } else if (nonce < this.floor || this.used.has(nonce) || this.pending.has(nonce)) {
      throw refused(nonce, 'was already used');
    }
    this.pending.add(nonce);
  }

  /** The venue accepted the transaction: its nonce is used. */
  commit(nonce: number): void {
    this.pending.delete(nonce);
    this.used.add(nonce);
    this.last = Math.max(this.last, nonce);
    if (this.used.size > REMEMBERED) {
      const oldest = this.used.values().next().value as number;
      this.used.delete(oldest);
      this.floor = Math.max(this.floor, oldest + 1);
    }
  }

  /** The transaction is done: a nonce not committed is free again. */
  release(nonce: number): void {
    this.pending.delete(nonce);
  }

  private highest(): number {
    return Math.max(this.last, ...this.pending);
  }
}
