import { encode } from '@msgpack/msgpack';
import { concat, hexToBytes, keccak256, recoverTypedDataAddress } from 'viem';
import type { TypedData, TypedDataDomain } from 'viem';
import {
  ZERO_ADDRESS,
  addressOf,
  recovered,
  signatureOf,
  uint64Bytes,
  type HlSignature,
} from './hl-signature';

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

export { HlSignatureError, venueText, type HlSignature } from './hl-signature';
export { isUserSignedAction, recoverUserSignedActionSigner } from './hl-user-signing';

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
