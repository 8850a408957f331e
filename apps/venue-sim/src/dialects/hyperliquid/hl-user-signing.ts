/** Hyperliquid's user-signed actions (approveAgent, approveBuilderFee, transfers…): EIP-712 over each action type's fields. */
import { recoverTypedDataAddress } from 'viem';
import {
  HlSignatureError,
  ZERO_ADDRESS,
  addressOf,
  isUint64,
  recovered,
  signatureOf,
  venueText,
  type HlSignature,
} from './hl-signature';

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
