import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  messageHash,
  paradexAccountAddress,
  verifyStarkSignature,
  type TypedData,
  type TypedDataField,
} from './paradex-signing';

/** Paradex's system config: the chain and the account contract class hashes ccxt derives accounts from. */
export const SYSTEM_CONFIG = {
  starknet_gateway_url: 'http://127.0.0.1/starknet',
  starknet_fullnode_rpc_url: 'http://127.0.0.1/starknet/rpc',
  starknet_chain_id: 'PRIVATE_SN_PARACLEAR_MAINNET',
  block_explorer_url: 'http://127.0.0.1/explorer',
  paraclear_address: '0x3f43c2f3d7bbd52fa8d2c87f0b3c1ab2d8bf5d4d1c1e3c2b9d1f8b2a6c1e9d1',
  paraclear_decimals: 8,
  paraclear_account_proxy_hash: '0x3530cc4759d78042f1b543bf797f5f3d647cde0388c33734cf91b7f7b9314a9',
  paraclear_account_hash: '0x41cb0280ebadaa75f996d8d92c6f265f6d040bb3ba442e5f86a554f1765244e',
  oracle_address: '0x2c6a867917ef858d6b193a0ff9e62b46d0dc760366920d631715d58baeaca1f',
  bridged_tokens: [],
  l1_core_contract_address: '0x0000000000000000000000000000000000000000',
  l1_operator_address: '0x0000000000000000000000000000000000000000',
  l1_chain_id: '1',
  liquidation_fee: '0.2',
} as const;

/** How long an auth request's signature may be valid (the venue allows a week; ccxt asks 3 minutes). */
const MAX_SIGNATURE_LIFETIME_S = 7 * 86_400;
/** How far a request's timestamp may be from the venue's clock. */
const CLOCK_TOLERANCE_S = 10 * 60;
/**
 * A JWT's life: "For security reasons JWTs used in Paradex's authentication
 * mechanism expire every 5 minutes. It is not possible to extend the
 * expiration." (docs.paradex.trade, api/general-information/authentication),
 * whatever expiration the auth request signed.
 */
export const JWT_LIFETIME_S = 300;

const STARKNET_DOMAIN: readonly TypedDataField[] = [
  { name: 'name', type: 'felt' },
  { name: 'chainId', type: 'felt' },
  { name: 'version', type: 'felt' },
];

/** A refusal in Paradex's shape: `{error, message, data: null}` with its HTTP status. */
export class ParadexError extends Error {
  override readonly name = 'ParadexError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  reply() {
    return { status: this.status, body: { error: this.code, message: this.message, data: null } };
  }
}

/** A Paradex typed-data message of one struct type, in the venue's domain. */
export function paradexTyped(
  primaryType: string,
  fields: readonly TypedDataField[],
  message: Record<string, unknown>,
): TypedData {
  return {
    types: { StarkNetDomain: STARKNET_DOMAIN, [primaryType]: fields },
    primaryType,
    domain: { name: 'Paradex', chainId: SYSTEM_CONFIG.starknet_chain_id, version: 1 },
    message,
  };
}

const felt = (name: string): TypedDataField => ({ name, type: 'felt' });

interface Onboarded {
  starkKey: string;
  ethereumAccount: string;
}

/**
 * Paradex accounts and their sessions. An account exists once onboarded (and
 * holds money once its Ethereum wallet is funded):
 * `POST /v1/onboarding` names the stark key, signed by it, and the account
 * address must be the one that key derives (`paradexAccountAddress`). `POST
 * /v1/auth`, signed by the account's key over {method, path, body,
 * timestamp, expiration}, issues a bearer token: a JWT (HS256 under the
 * simulator's own secret) whose claims name the account (`sub`) and its life
 * (`iat`, `exp`, `JWT_LIFETIME_S` apart), which the official SDK reads to
 * renew it (paradex-py `api_client.py` `_jwt_exp`).
 */
export class ParadexAuth {
  private readonly accounts = new Map<string, Onboarded>();
  private readonly secret = randomBytes(32);
  /** The life of the JWTs issued from now on (a test may shorten it: `_sim/jwt`). */
  tokenLifetimeS = JWT_LIFETIME_S;
  /** How many JWTs were issued. */
  issued = 0;

  onboard(headers: Record<string, string | undefined>, publicKey: unknown): void {
    const account = addressOf(headers['paradex-starknet-account']);
    const ethereum = headers['paradex-ethereum-account'];
    if (!ethereum || !/^0x[0-9a-fA-F]{40}$/.test(ethereum)) {
      throw new ParadexError(400, 'INVALID_ETHEREUM_ADDRESS', 'invalid ethereum address');
    }
    if (typeof publicKey !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(publicKey)) {
      throw new ParadexError(400, 'PUBLIC_KEY_INVALID', 'invalid public key');
    }
    const derived = paradexAccountAddress(
      publicKey,
      SYSTEM_CONFIG.paraclear_account_hash,
      SYSTEM_CONFIG.paraclear_account_proxy_hash,
    );
    if (BigInt(derived) !== BigInt(account)) {
      throw new ParadexError(
        400,
        'INVALID_STARKNET_ADDRESS',
        'account does not match the public key',
      );
    }
    const typed = paradexTyped('Constant', [felt('action')], { action: 'Onboarding' });
    this.checkSignature(headers['paradex-starknet-signature'], typed, account, publicKey);
    const known = this.accounts.get(account);
    if (known && known.starkKey !== publicKey) {
      throw new ParadexError(400, 'ETHEREUM_ADDRESS_ALREADY_ONBOARDED', 'already onboarded');
    }
    this.accounts.set(account, { starkKey: publicKey, ethereumAccount: ethereum.toLowerCase() });
  }

  /** Checks a signed auth request; returns a bearer token. */
  authenticate(headers: Record<string, string | undefined>, nowMs: number): string {
    const account = addressOf(headers['paradex-starknet-account']);
    const onboarded = this.accounts.get(account);
    if (!onboarded) {
      throw new ParadexError(400, 'NOT_ONBOARDED', 'User has never called /onboarding endpoint');
    }
    const timestamp = seconds(headers['paradex-timestamp'], 'INVALID_TIMESTAMP');
    const expiration = seconds(
      headers['paradex-signature-expiration'],
      'INVALID_SIGNATURE_EXPIRATION',
    );
    const now = Math.floor(nowMs / 1000);
    if (Math.abs(timestamp - now) > CLOCK_TOLERANCE_S) {
      throw new ParadexError(400, 'INVALID_TIMESTAMP', 'timestamp is too far from the server time');
    }
    if (expiration <= now || expiration - timestamp > MAX_SIGNATURE_LIFETIME_S) {
      throw new ParadexError(
        401,
        'INVALID_SIGNATURE_EXPIRATION',
        'signature expiration is invalid',
      );
    }
    const typed = paradexTyped(
      'Request',
      [felt('method'), felt('path'), felt('body'), felt('timestamp'), felt('expiration')],
      { method: 'POST', path: '/v1/auth', body: '', timestamp, expiration },
    );
    this.checkSignature(headers['paradex-starknet-signature'], typed, account, onboarded.starkKey);
    this.issued += 1;
    return this.jwt({ sub: account, iat: now, exp: now + this.tokenLifetimeS });
  }

  /** The account behind `Authorization: Bearer <token>`: a JWT of this venue, not past its `exp`. */
  accountOf(authorization: string | undefined, nowMs: number): string {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    if (!token) {
      throw new ParadexError(401, '40110', 'missing or malformed jwt');
    }
    const claims = this.claimsOf(token);
    if (!claims || claims.exp * 1000 <= nowMs) {
      throw new ParadexError(401, '40111', 'Invalid Bearer Token');
    }
    return claims.sub;
  }

  private jwt(claims: JwtClaims): string {
    const head = base64url({ alg: 'HS256', typ: 'JWT' });
    const body = base64url(claims);
    return `${head}.${body}.${this.mac(`${head}.${body}`).toString('base64url')}`;
  }

  /** A token's claims when this venue signed it; undefined for anything else. */
  private claimsOf(token: string): JwtClaims | undefined {
    const [head, body, mac] = token.split('.');
    if (head === undefined || body === undefined || mac === undefined) {
      return undefined;
    }
    const expected = this.mac(`${head}.${body}`);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return undefined;
    }
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as JwtClaims;
  }

  private mac(signed: string): Buffer {
    return createHmac('sha256', this.secret).update(signed).digest();
  }

  /**
   * The engine account of a StarkNet account: the Ethereum wallet that
   * onboarded it, lower-cased (the simulator keys accounts by wallet in every
   * protocol, and deposits go to the wallet).
   */
  walletOf(account: string): string {
    const onboarded = this.accounts.get(account);
    if (!onboarded) {
      throw new ParadexError(400, 'NOT_ONBOARDED', 'User has never called /onboarding endpoint');
    }
    return onboarded.ethereumAccount;
  }

  starkKeyOf(account: string): string | undefined {
    return this.accounts.get(account)?.starkKey;
  }

  /** Checks a `[r, s]` signature (a JSON array, as ccxt sends it) of `typed` by `starkKey`. */
  checkSignature(
    signature: unknown,
    typed: TypedData,
    account: string,
    starkKey: string,
    code = 'STARKNET_SIGNATURE_VERIFICATION_FAILED',
  ): void {
    const pair = parseSignature(signature);
    if (!pair || !verifyStarkSignature(pair, messageHash(typed, account), starkKey)) {
      throw new ParadexError(401, code, 'starknet signature verification failed');
    }
  }
}

/** A signature as ccxt sends it: `["r", "s"]`, as a JSON string (headers) or an array (bodies). */
function parseSignature(value: unknown): [string, string] | undefined {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) {
    return undefined;
  }
  const [r, s] = parsed as unknown[];
  if (typeof r !== 'string' || typeof s !== 'string') {
    return undefined;
  }
  if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(r) || !/^(0x[0-9a-fA-F]+|\d+)$/.test(s)) {
    return undefined;
  }
  return [r, s];
}

/** A StarkNet account address, canonical (0x, lower-case, no leading zeros). */
export function addressOf(value: string | undefined): string {
  if (!value || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new ParadexError(400, 'INVALID_STARKNET_ADDRESS', 'invalid starknet address');
  }
  return `0x${BigInt(value).toString(16)}`;
}

interface JwtClaims {
  sub: string;
  iat: number;
  exp: number;
}

const base64url = (value: unknown): string =>
  Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

function seconds(value: string | undefined, code: string): number {
  if (!value || !/^\d{1,12}$/.test(value)) {
    throw new ParadexError(400, code, `invalid ${code.toLowerCase()}`);
  }
  return Number(value);
}
