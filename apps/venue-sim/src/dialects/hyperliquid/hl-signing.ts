import { encode } from '@msgpack/msgpack';
import { concat, hexToBytes, keccak256, numberToHex, recoverTypedDataAddress } from 'viem';
import type { Hex, TypedData, TypedDataDomain } from 'viem';

/**
 * Hyperliquid's two signing schemes, verified the way the venue verifies them:
 * a request carries no signer address, the venue recovers one from the
 * signature and answers as that address. A payload that was changed after
 * signing therefore does not fail "a signature check": it recovers some other
 * address, which the venue then reports as unknown (`venueText.unknownSigner`).
 *
 * Source: the official SDK, hyperliquid-dex/hyperliquid-python-sdk
 * `hyperliquid/utils/signing.py` (action_hash, l1_payload, user_signed_payload
 * and the sign types) and `hyperliquid/exchange.py` (which actions use which).
 * Its published vectors (`tests/signing_test.py`) are this file's spec.
 */

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

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const UINT64_MAX = (1n << 64n) - 1n;
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * keccak256(msgpack(action) ‖ nonce as 8-byte big-endian ‖ vault flag (0x00,
 * or 0x01 ‖ 20-byte address) ‖ [0x00 ‖ expiresAfter as 8 bytes, only when
 * expiresAfter is given]).
 *
 * The action is packed as received: map keys in insertion order (which
 * JSON.parse keeps), strings as str, whole numbers in their smallest int form,
 * as Python's `msgpack.packb` packs the SDK's dicts. A null `expiresAfter` (the
 * Python SDK sends `"expiresAfter": null`) counts as absent.
 */
export function l1ActionHash(
  action: unknown,
  nonce: number,
  vaultAddress?: string | null,
  expiresAfter?: number | null,
): `0x${string}` {
  const parts: Uint8Array[] = [encode(action), uint64Bytes(nonce)];
  if (vaultAddress === undefined || vaultAddress === null) {
    parts.push(Uint8Array.of(0));
  } else {
    parts.push(Uint8Array.of(1), hexToBytes(addressOf(vaultAddress)));
  }
  if (expiresAfter !== undefined && expiresAfter !== null) {
    parts.push(Uint8Array.of(0), uint64Bytes(expiresAfter));
  }
  return keccak256(concat(parts));
}

const L1_DOMAIN = {
  name: 'Exchange',
  version: '1',
  chainId: 1337,
  verifyingContract: ZERO_ADDRESS,
} as const satisfies TypedDataDomain;

const PHANTOM_AGENT_TYPES = {
  Agent: [
    { name: 'source', type: 'string' },
    { name: 'connectionId', type: 'bytes32' },
  ],
} as const satisfies TypedData;

/**
 * The address (lower-case 0x…) that signed an L1 action: EIP-712 "phantom
 * agent" {source: 'a' mainnet | 'b' testnet, connectionId: l1ActionHash},
 * domain {name: 'Exchange', version: '1', chainId: 1337, verifyingContract: 0x0…0}.
 */
export async function recoverL1ActionSigner(input: {
  action: unknown;
  nonce: number;
  signature: HlSignature;
  vaultAddress?: string | null;
  expiresAfter?: number | null;
  /** Default true: the simulator is a mainnet venue. */
  isMainnet?: boolean;
}): Promise<string> {
  const connectionId = l1ActionHash(
    input.action,
    input.nonce,
    input.vaultAddress,
    input.expiresAfter,
  );
  const signature = signatureOf(input.signature);
  return recovered(
    recoverTypedDataAddress({
      domain: L1_DOMAIN,
      types: PHANTOM_AGENT_TYPES,
      primaryType: 'Agent',
      message: { source: input.isMainnet === false ? 'b' : 'a', connectionId },
      signature,
    }),
  );
}

type SignedFieldType = 'string' | 'address' | 'bool' | 'uint64';
interface SignedField {
  readonly name: string;
  readonly type: SignedFieldType;
}
interface UserSignedType {
  readonly primaryType: `HyperliquidTransaction:${string}`;
  readonly fields: readonly SignedField[];
}

const field = (name: string, type: SignedFieldType): SignedField => ({ name, type });
const chain = field('hyperliquidChain', 'string');

/**
 * The actions a user signs with its own wallet (never an API wallet), by
 * action type, with the fields in the order the venue hashes them. The
 * action's other keys (`type`, `signatureChainId`) are not signed.
 */
const USER_SIGNED_TYPES: Readonly<Record<string, UserSignedType>> = {
  usdSend: {
    primaryType: 'HyperliquidTransaction:UsdSend',
    fields: [
      chain,
      field('destination', 'string'),
      field('amount', 'string'),
      field('time', 'uint64'),
    ],
  },
  spotSend: {
    primaryType: 'HyperliquidTransaction:SpotSend',
    fields: [
      chain,
      field('destination', 'string'),
      field('token', 'string'),
      field('amount', 'string'),
      field('time', 'uint64'),
    ],
  },
  withdraw3: {
    primaryType: 'HyperliquidTransaction:Withdraw',
    fields: [
      chain,
      field('destination', 'string'),
      field('amount', 'string'),
      field('time', 'uint64'),
    ],
  },
  usdClassTransfer: {
    primaryType: 'HyperliquidTransaction:UsdClassTransfer',
    fields: [chain, field('amount', 'string'), field('toPerp', 'bool'), field('nonce', 'uint64')],
  },
  sendAsset: {
    primaryType: 'HyperliquidTransaction:SendAsset',
    fields: [
      chain,
      field('destination', 'string'),
      field('sourceDex', 'string'),
      field('destinationDex', 'string'),
      field('token', 'string'),
      field('amount', 'string'),
      field('fromSubAccount', 'string'),
      field('nonce', 'uint64'),
    ],
  },
  approveAgent: {
    primaryType: 'HyperliquidTransaction:ApproveAgent',
    fields: [
      chain,
      field('agentAddress', 'address'),
      field('agentName', 'string'),
      field('nonce', 'uint64'),
    ],
  },
  approveBuilderFee: {
    primaryType: 'HyperliquidTransaction:ApproveBuilderFee',
    fields: [
      chain,
      field('maxFeeRate', 'string'),
      field('builder', 'address'),
      field('nonce', 'uint64'),
    ],
  },
  tokenDelegate: {
    primaryType: 'HyperliquidTransaction:TokenDelegate',
    fields: [
      chain,
      field('validator', 'address'),
      field('wei', 'uint64'),
      field('isUndelegate', 'bool'),
      field('nonce', 'uint64'),
    ],
  },
  convertToMultiSigUser: {
    primaryType: 'HyperliquidTransaction:ConvertToMultiSigUser',
    fields: [chain, field('signers', 'string'), field('nonce', 'uint64')],
  },
  userDexAbstraction: {
    primaryType: 'HyperliquidTransaction:UserDexAbstraction',
    fields: [chain, field('user', 'address'), field('enabled', 'bool'), field('nonce', 'uint64')],
  },
  userSetAbstraction: {
    primaryType: 'HyperliquidTransaction:UserSetAbstraction',
    fields: [
      chain,
      field('user', 'address'),
      field('abstraction', 'string'),
      field('nonce', 'uint64'),
    ],
  },
};

/** True for an action type signed as a user-signed action (EIP-712 over its fields), false for an L1 action. */
export function isUserSignedAction(actionType: unknown): boolean {
  return typeof actionType === 'string' && Object.hasOwn(USER_SIGNED_TYPES, actionType);
}

/**
 * The address (lower-case 0x…) that signed a user-signed action: EIP-712
 * domain {name: 'HyperliquidSignTransaction', version: '1', chainId:
 * parseInt(action.signatureChainId), verifyingContract: 0x0…0}, primary type
 * `HyperliquidTransaction:<Type>` over the action's fields in the venue's
 * order. Throws HlSignatureError for an action type it does not know.
 */
export async function recoverUserSignedActionSigner(input: {
  action: Record<string, unknown>;
  signature: HlSignature;
}): Promise<string> {
  const { action } = input;
  const signedType = isUserSignedAction(action.type)
    ? USER_SIGNED_TYPES[action.type as string]
    : undefined;
  if (!signedType) {
    throw new HlSignatureError(venueText.cannotDeserialize);
  }
  const message: Record<string, unknown> = {};
  for (const { name, type } of signedType.fields) {
    message[name] = signedValue(type, valueOf(action, name));
  }
  const signature = signatureOf(input.signature);
  return recovered(
    recoverTypedDataAddress({
      domain: {
        name: 'HyperliquidSignTransaction',
        version: '1',
        chainId: chainIdOf(action.signatureChainId),
        verifyingContract: ZERO_ADDRESS,
      },
      types: {
        [signedType.primaryType]: signedType.fields.map(({ name, type }) => ({ name, type })),
      },
      primaryType: signedType.primaryType,
      message,
      signature,
    }),
  );
}

/**
 * An approveAgent without a name is signed over `agentName: ""` and sent
 * without the key (the official SDK drops it after signing), so an absent
 * name reads as the empty string.
 */
function valueOf(action: Record<string, unknown>, name: string): unknown {
  const value = action[name];
  return value === undefined && action.type === 'approveAgent' && name === 'agentName' ? '' : value;
}

function signedValue(type: SignedFieldType, value: unknown): unknown {
  switch (type) {
    case 'string':
      if (typeof value === 'string') {
        return value;
      }
      break;
    case 'bool':
      if (typeof value === 'boolean') {
        return value;
      }
      break;
    case 'uint64':
      if (isUint64(value)) {
        return BigInt(value);
      }
      break;
    case 'address':
      // Hashed as 20 bytes, so the case is not signed; lower-cased so a
      // mixed-case address is not held to a checksum the venue ignores.
      if (typeof value === 'string') {
        return addressOf(value);
      }
      break;
  }
  throw new HlSignatureError(venueText.cannotDeserialize);
}

function chainIdOf(signatureChainId: unknown): number {
  if (typeof signatureChainId !== 'string' || !/^0x[0-9a-fA-F]{1,13}$/.test(signatureChainId)) {
    throw new HlSignatureError(venueText.cannotDeserialize);
  }
  return parseInt(signatureChainId, 16);
}

/** ccxt sends `vaultAddress` without its 0x, which the venue reads like any address. */
function addressOf(address: string): Hex {
  const hex = /^(?:0x)?([0-9a-fA-F]{40})$/.exec(address)?.[1];
  if (hex === undefined) {
    throw new HlSignatureError(venueText.cannotDeserialize);
  }
  return `0x${hex.toLowerCase()}`;
}

function isUint64(value: unknown): value is number | bigint {
  if (typeof value === 'bigint') {
    return value >= 0n && value <= UINT64_MAX;
  }
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function uint64Bytes(value: number): Uint8Array {
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
function signatureOf(signature: HlSignature): { r: Hex; s: Hex; yParity: number } {
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

async function recovered(recovery: Promise<string>): Promise<string> {
  try {
    return (await recovery).toLowerCase();
  } catch {
    throw new HlSignatureError(venueText.unableToRecoverSigner);
  }
}
