import { Point, Signature, computeHashOnElements, keccak, verify } from '@scure/starknet';

/**
 * Paradex's signatures, checked the way the venue checks them: every signed
 * request (the auth that issues a JWT, onboarding, each order) is a StarkNet
 * typed-data message (SNIP-12 revision 0: Pedersen hashes, `felt` fields)
 * signed with the account's Stark key; the venue knows the account's public
 * key (its x coordinate, the "stark key") from onboarding.
 *
 * The hashing follows SNIP-12 revision 0 as starknet.js implements it
 * (`typedData.getMessageHash`); its published "Mail" vector is this file's
 * known answer. Elliptic-curve work is @scure/starknet's.
 */

export interface TypedDataField {
  name: string;
  type: string;
}

export interface TypedData {
  types: Record<string, readonly TypedDataField[]>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}

/** A value the venue cannot read as a felt (a string over 31 characters, a negative number). */
export class ParadexSignatureError extends Error {
  override readonly name = 'ParadexSignatureError';
}

const MAX_SHORT_STRING = 31;
/** Felts are below the Stark field prime. */
const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

/** A short string as a felt: its ASCII bytes, big-endian. */
export function shortString(text: string): bigint {
  if (text.length > MAX_SHORT_STRING || [...text].some((char) => char.charCodeAt(0) > 0x7f)) {
    throw new ParadexSignatureError(`not a short string: ${text}`);
  }
  let value = 0n;
  for (const char of text) {
    value = (value << 8n) | BigInt(char.charCodeAt(0));
  }
  return value;
}

/**
 * A `felt` field's value, as starknet.js rev 0 reads it: a number, a
 * decimal or 0x-hex string as that number, any other string as a short string.
 */
export function feltOf(value: unknown): bigint {
  let felt: bigint;
  if (typeof value === 'bigint') {
    felt = value;
  } else if (typeof value === 'number' && Number.isSafeInteger(value)) {
    felt = BigInt(value);
  } else if (typeof value === 'boolean') {
    felt = value ? 1n : 0n;
  } else if (typeof value === 'string') {
    felt = /^(0x[0-9a-fA-F]*|\d*)$/.test(value)
      ? BigInt(value === '0x' ? 0 : value)
      : shortString(value);
  } else {
    throw new ParadexSignatureError(`not a felt: ${String(value)}`);
  }
  if (felt < 0n || felt >= FIELD_PRIME) {
    throw new ParadexSignatureError(`felt out of range: ${felt}`);
  }
  return felt;
}

/** `Name(field:type,…)` of a type, then of the struct types it uses, in name order. */
export function encodeType(types: TypedData['types'], type: string): string {
  const [primary, ...dependencies] = dependenciesOf(types, type);
  return [primary, ...dependencies.sort()]
    .map((name) => `${name}(${(types[name] ?? []).map((f) => `${f.name}:${f.type}`).join(',')})`)
    .join('');
}

function dependenciesOf(types: TypedData['types'], type: string, seen: string[] = []): string[] {
  if (seen.includes(type) || types[type] === undefined) {
    return seen;
  }
  seen.push(type);
  for (const field of types[type]) {
    dependenciesOf(types, field.type, seen);
  }
  return seen;
}

const typeHash = (types: TypedData['types'], type: string): bigint =>
  keccak(new TextEncoder().encode(encodeType(types, type)));

/** The hash of one struct: Pedersen over its type hash and its encoded fields. */
export function structHash(
  types: TypedData['types'],
  type: string,
  data: Record<string, unknown>,
): bigint {
  const fields = types[type];
  if (!fields) {
    throw new ParadexSignatureError(`unknown type ${type}`);
  }
  const values = [
    typeHash(types, type),
    ...fields.map((field) => {
      const value = data[field.name];
      if (types[field.type]) {
        return structHash(types, field.type, value as Record<string, unknown>);
      }
      if (field.type !== 'felt') {
        throw new ParadexSignatureError(`unsupported type ${field.type}`);
      }
      return feltOf(value);
    }),
  ];
  return BigInt(computeHashOnElements(values) as bigint | string);
}

/**
 * The message hash an account signs: Pedersen over "StarkNet Message", the
 * domain's struct hash, the account address and the message's struct hash.
 */
export function messageHash(typed: TypedData, account: string): bigint {
  const domainType = typed.types['StarkNetDomain'] ? 'StarkNetDomain' : 'StarknetDomain';
  return BigInt(
    computeHashOnElements([
      shortString('StarkNet Message'),
      structHash(typed.types, domainType, typed.domain),
      feltOf(account),
      structHash(typed.types, typed.primaryType, typed.message),
    ]) as bigint | string,
  );
}

/**
 * True when `[r, s]` (decimal or hex strings, as Paradex takes them) signs
 * `hash` with the key whose x coordinate is `starkKey`. Either point with that
 * x is the key (a stark key does not say which y).
 */
export function verifyStarkSignature(
  signature: readonly [string, string],
  hash: bigint,
  starkKey: string,
): boolean {
  let sig: InstanceType<typeof Signature>;
  try {
    sig = new Signature(BigInt(signature[0]), BigInt(signature[1]));
  } catch {
    return false;
  }
  const x = BigInt(starkKey).toString(16).padStart(64, '0');
  const msg = hash.toString(16);
  for (const prefix of ['02', '03']) {
    try {
      const point = Point.fromHex(prefix + x);
      if (verify(sig, msg, point.toHex(false))) {
        return true;
      }
    } catch {
      // not a point of the curve with that x: no key
    }
  }
  return false;
}

/** Contract addresses are below this bound. */
const ADDRESS_BOUND = 2n ** 251n - 256n;

/** A function's selector: the StarkNet keccak of its name. */
export const selectorOf = (name: string): bigint => keccak(new TextEncoder().encode(name));

/**
 * The address of a Paradex account for a stark key: its proxy contract
 * deployed (deployer 0, salt = the key) with constructor calldata
 * [implementation, selector("initialize"), 2, key, guardian 0], as Paradex
 * and ccxt (`retrieveStarkAccount`) derive it from the system config's
 * `paraclear_account_hash` and `paraclear_account_proxy_hash`.
 */
export function paradexAccountAddress(
  starkKey: string,
  accountClassHash: string,
  proxyClassHash: string,
): string {
  const key = BigInt(starkKey);
  const calldata = [BigInt(accountClassHash), selectorOf('initialize'), 2n, key, 0n];
  const hash = computeHashOnElements([
    shortString('STARKNET_CONTRACT_ADDRESS'),
    0n,
    key,
    BigInt(proxyClassHash),
    BigInt(computeHashOnElements(calldata) as bigint | string),
  ]);
  return `0x${(BigInt(hash as bigint | string) % ADDRESS_BOUND).toString(16)}`;
}
