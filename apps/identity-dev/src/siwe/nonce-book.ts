import { generateSiweNonce } from 'viem/siwe';

export const NONCE_TTL_MS = 5 * 60_000;
/** Nonces waiting to be spent; past it the oldest are forgotten (a flood cannot grow memory). */
const MAX_PENDING = 10_000;

/**
 * The nonces this provider handed out, each good for one sign-in attempt
 * within five minutes. In memory: a restart forgets them, and a client asks
 * for a new one.
 */
export class NonceBook {
  /** nonce -> issued at (ms); insertion order is issue order. */
  private readonly pending = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(): string {
    this.forgetExpired();
    while (this.pending.size >= MAX_PENDING) {
      this.pending.delete(this.pending.keys().next().value as string);
    }
    const nonce = generateSiweNonce();
    this.pending.set(nonce, this.now());
    return nonce;
  }

  /** True once for a nonce we issued less than five minutes ago; it is gone afterwards. */
  spend(nonce: string): boolean {
    const issuedAt = this.pending.get(nonce);
    this.pending.delete(nonce);
    return issuedAt !== undefined && this.now() - issuedAt <= NONCE_TTL_MS;
  }

  private forgetExpired(): void {
    const cutoff = this.now() - NONCE_TTL_MS;
    for (const [nonce, issuedAt] of this.pending) {
      if (issuedAt >= cutoff) {
        return;
      }
      this.pending.delete(nonce);
    }
  }
}
