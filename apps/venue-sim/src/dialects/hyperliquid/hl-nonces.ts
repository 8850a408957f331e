import { venueText } from './hl-signing';

/** A nonce the venue refuses; message = the venue's own text (`Invalid nonce: …`). */
export class HlNonceError extends Error {
  override readonly name = 'HlNonceError';
}

const DAY_MS = 86_400_000;
/** How far back a nonce may be, from the venue's time. */
const OLDEST_MS = 2 * DAY_MS;
/** How far ahead a nonce may be, from the venue's time. */
const NEWEST_MS = DAY_MS;
/** How many of a signer's highest nonces the venue keeps (its most generous tier). */
const HELD = 100;

/**
 * Hyperliquid's replay rule, per signer (the user's address, or the API
 * wallet's when an agent signs): a nonce is a millisecond time within
 * (now - 2 days, now + 1 day); the venue keeps the signer's 100 highest, and
 * a new one must not be among them and, once 100 are held, must be above the
 * smallest. Nonces need not arrive in order.
 *
 * Texts as the venue answers them: "Invalid nonce: duplicate nonce <n>",
 * "Invalid nonce: nonce too low <n> < <least>", "Invalid nonce: nonce too
 * high <n> > <most>".
 */
export class HlNonces {
  /** Per lower-cased signer, its highest nonces in ascending order. */
  private readonly held = new Map<string, number[]>();

  /** Records the nonce when the venue would take it; throws HlNonceError otherwise. */
  check(signer: string, nonce: number, nowMs: number): void {
    if (!Number.isSafeInteger(nonce) || nonce < 0) {
      throw new HlNonceError(venueText.cannotDeserialize);
    }
    const oldest = nowMs - OLDEST_MS;
    const newest = nowMs + NEWEST_MS;
    if (nonce <= oldest) {
      throw new HlNonceError(`Invalid nonce: nonce too low ${nonce} < ${oldest}`);
    }
    if (nonce >= newest) {
      throw new HlNonceError(`Invalid nonce: nonce too high ${nonce} > ${newest}`);
    }
    const key = signer.toLowerCase();
    const nonces = this.held.get(key) ?? [];
    const at = insertionPoint(nonces, nonce);
    if (nonces[at] === nonce) {
      throw new HlNonceError(`Invalid nonce: duplicate nonce ${nonce}`);
    }
    if (nonces.length >= HELD && at === 0) {
      throw new HlNonceError(`Invalid nonce: nonce too low ${nonce} < ${nonces[0]}`);
    }
    nonces.splice(at, 0, nonce);
    if (nonces.length > HELD) {
      nonces.shift();
    }
    this.held.set(key, nonces);
  }

  clear(): void {
    this.held.clear();
  }
}

/** The index of the first held nonce not below `nonce`. */
function insertionPoint(ascending: readonly number[], nonce: number): number {
  let low = 0;
  let high = ascending.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ascending[middle] < nonce) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}
