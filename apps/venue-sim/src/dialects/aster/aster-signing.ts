import { recoverTypedDataAddress, zeroAddress, type Hex } from 'viem';
import type { RequestContext } from '../../api/http-kit';
import { AsterError } from './aster-errors';

/**
 * Aster's v3 request signature: the request's url-encoded parameter string
 * (everything but `signature`, including `nonce`, `user` and `signer`) is the
 * `msg` of an EIP-712 `Message` in the domain below, signed by the signer's
 * key; `&signature=0x…` is appended last. (Aster futures v3 docs, "Example of
 * POST /fapi/v3/order"; ccxt 4.5.84 aster.sign.)
 */
export const ASTER_SIGNING_DOMAIN = {
  name: 'AsterSignTransaction',
  version: '1',
  chainId: 1666,
  verifyingContract: zeroAddress,
} as const;

export const ASTER_MESSAGE_TYPES = { Message: [{ name: 'msg', type: 'string' }] } as const;

/** The nonce is the client's clock in microseconds, within 10 s of the venue's (v3 docs). */
export const NONCE_WINDOW_US = 10_000_000;
/** How many recent nonces the venue keeps per user (v3 docs, "V3 Nonce Mechanism"). */
export const RECENT_NONCES_PER_USER = 100;

const SIGNATURE_MARK = '&signature=';
const NONCE = /^\d{1,16}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A request whose signature, signer and nonce the venue accepted. */
export interface AsterSignedRequest {
  /** Lower-cased main wallet: the account. */
  user: string;
  signer: string;
  nonceUs: number;
  /** Every parameter of the signed string, decoded (auth fields included). */
  params: Record<string, string>;
  /** `nonce` / 1000 + `recvWindow` when the client sent a recvWindow. */
  expiresAtMs?: number;
}

/**
 * The nonces each user sent lately: a nonce seen before, or older than all
 * of a full list, is refused as expired (the venue's "duplicate" and "too
 * old" rules answer alike: -4225 "Nonce Expired").
 */
export class NonceBook {
  private readonly recent = new Map<string, number[]>();

  accept(user: string, nonceUs: number): void {
    const list = this.recent.get(user) ?? [];
    if (list.includes(nonceUs)) {
      throw new AsterError('nonceExpired');
    }
    if (list.length >= RECENT_NONCES_PER_USER && nonceUs < list[0]) {
      throw new AsterError('nonceExpired');
    }
    let index = list.findIndex((known) => known > nonceUs);
    if (index < 0) {
      index = list.length;
    }
    list.splice(index, 0, nonceUs);
    if (list.length > RECENT_NONCES_PER_USER) {
      list.shift();
    }
    this.recent.set(user, list);
  }
}

/** The signed string and its signature, split where the venue splits them. */
export function splitSignedString(raw: string): { msg: string; signature: string } {
  const at = raw.lastIndexOf(SIGNATURE_MARK);
  if (at < 0) {
    throw new AsterError('mandatoryParameter', ['signature']);
  }
  const signature = raw.slice(at + SIGNATURE_MARK.length);
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) {
    throw new AsterError('badSignature');
  }
  return { msg: raw.slice(0, at), signature };
}

/** The parameters of a url-encoded string; a parameter sent twice is refused. */
export function parseParams(encoded: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    if (key in params) {
      throw new AsterError('duplicateParameter');
    }
    params[key] = value;
  }
  return params;
}

/** The address that signed `msg` as an Aster v3 request, or undefined for a malformed signature. */
export async function recoverAsterSigner(
  msg: string,
  signature: string,
): Promise<string | undefined> {
  try {
    const address = await recoverTypedDataAddress({
      domain: ASTER_SIGNING_DOMAIN,
      types: ASTER_MESSAGE_TYPES,
      primaryType: 'Message',
      message: { msg },
      signature: signature as Hex,
    });
    return address.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Verifies one signed request as the venue does: the signature covers the
 * parameter string exactly as received (a changed byte changes the signer),
 * the recovered address is the `signer` named in it, the signer may act
 * for the `user` (`mayActFor`: an API wallet the user approved, or the user
 * itself where the `main_wallet_signs` reading accepts it), the nonce is
 * within 10 s of now and new for the user, and a `recvWindow`, if sent, has
 * not passed. The nonce is recorded only once the signature holds, so
 * nobody can burn another wallet's nonces.
 */
export async function verifyAsterRequest(
  raw: string,
  nowMs: number,
  nonces: NonceBook,
  mayActFor: (user: string, signer: string) => boolean = (user, signer) => user === signer,
): Promise<AsterSignedRequest> {
  const { msg, signature } = splitSignedString(raw);
  const params = parseParams(msg);
  for (const field of ['nonce', 'user', 'signer'] as const) {
    const value = params[field];
    const valid = field === 'nonce' ? NONCE.test(value ?? '') : ADDRESS.test(value ?? '');
    if (!valid) {
      throw new AsterError('mandatoryParameter', [field]);
    }
  }
  const signer = params['signer'].toLowerCase();
  const user = params['user'].toLowerCase();
  if ((await recoverAsterSigner(msg, signature)) !== signer) {
    throw new AsterError('badSignature');
  }
  if (!mayActFor(user, signer)) {
    throw new AsterError('notAuthorized');
  }
  const nonceUs = Number(params['nonce']);
  if (Math.abs(nonceUs - nowMs * 1000) > NONCE_WINDOW_US) {
    throw new AsterError('outsideRecvWindow');
  }
  const expiresAtMs = recvWindowExpiry(params['recvWindow'], nonceUs);
  if (expiresAtMs !== undefined && nowMs > expiresAtMs) {
    throw new AsterError('outsideRecvWindow');
  }
  nonces.accept(user, nonceUs);
  return { user, signer, nonceUs, params, ...(expiresAtMs !== undefined ? { expiresAtMs } : {}) };
}

function recvWindowExpiry(recvWindow: string | undefined, nonceUs: number): number | undefined {
  if (recvWindow === undefined) {
    return undefined;
  }
  if (!/^\d{1,8}$/.test(recvWindow)) {
    throw new AsterError('invalidParameter', ['recvWindow']);
  }
  return Math.floor(nonceUs / 1000) + Number(recvWindow);
}

/**
 * The parameter string as the client sent it: the body for POST, PUT and
 * DELETE, the query string for GET (Aster also takes a POST's parameters in
 * the query, as its own Python example sends them).
 */
export function rawParams(context: RequestContext): string {
  if (context.rawBody !== '') {
    return context.rawBody;
  }
  const at = context.pathWithQuery.indexOf('?');
  return at < 0 ? '' : context.pathWithQuery.slice(at + 1);
}
