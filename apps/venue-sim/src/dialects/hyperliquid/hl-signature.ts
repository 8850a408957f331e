import { numberToHex } from 'viem';
import type { Hex } from 'viem';

/** What both signing schemes share: the signature's shape and checks, addresses, the venue's error texts. */

/** A signature as sent in `/exchange` bodies. */
export interface HlSignature {
  r: string;
  s: string;
  v: number;
}

/** A request whose signature cannot be checked; message = the venue's own error text where one exists. */
export class HlSignatureError extends Error {
  override readonly name = 'HlSignatureError';
}

/** The venue's own error texts around signatures, as its `/exchange` answers them (`{status: 'err', response: <text>}`). */
export const venueText = {
  /** The recovered signer is neither a user with funds nor an approved API wallet. */
  unknownSigner: (address: string): string =>
    `User or API Wallet ${address.toLowerCase()} does not exist.`,
  /** r, s or v do not make a signature any address could have made. */
  unableToRecoverSigner: 'Unable to recover signer.',
  /** A body the venue cannot read into its action types (the 422 of a missing or mistyped field). */
  cannotDeserialize: 'Failed to deserialize the JSON body into the target type',
} as const;

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const UINT64_MAX = (1n << 64n) - 1n;
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** ccxt sends `vaultAddress` without its 0x, which the venue reads like any address. */
export function addressOf(address: string): Hex {
  const hex = /^(?:0x)?([0-9a-fA-F]{40})$/.exec(address)?.[1];
  if (hex === undefined) {
    throw new HlSignatureError(venueText.cannotDeserialize);
  }
  return `0x${hex.toLowerCase()}`;
}

export function isUint64(value: unknown): value is number | bigint {
  if (typeof value === 'bigint') {
    return value >= 0n && value <= UINT64_MAX;
  }
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function uint64Bytes(value: number): Uint8Array {
  if (!isUint64(value)) {
    throw new HlSignatureError(venueText.cannotDeserialize);
  }
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value));
  return bytes;
}

/**
 * r and s as 32-byte words (the official SDK sends them without leading
 * zeros), v as 27/28 or a bare recovery bit; anything else recovers no one.
 */
export function signatureOf(signature: HlSignature): { r: Hex; s: Hex; yParity: number } {
  const r = scalarOf(signature?.r);
  const s = scalarOf(signature?.s);
  const v = signature?.v;
  const yParity = v === 27 || v === 28 ? v - 27 : v;
  if (r === undefined || s === undefined || (yParity !== 0 && yParity !== 1)) {
    throw new HlSignatureError(venueText.unableToRecoverSigner);
  }
  return { r: numberToHex(r, { size: 32 }), s: numberToHex(s, { size: 32 }), yParity };
}

function scalarOf(word: unknown): bigint | undefined {
  if (typeof word !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(word)) {
    return undefined;
  }
  const scalar = BigInt(word);
  return scalar > 0n && scalar < SECP256K1_ORDER ? scalar : undefined;
}

export async function recovered(recovery: Promise<string>): Promise<string> {
  try {
    return (await recovery).toLowerCase();
  } catch {
    throw new HlSignatureError(venueText.unableToRecoverSigner);
  }
}
