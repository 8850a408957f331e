import { keccak256, parseSignature, toHex, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createCcxtExchange, type CcxtExchangeLike } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { SimControl } from '../../testing/sim-control';
import { l1ActionHash, type HlSignature } from './hl-signing';
import type { LoggedAction } from './hl-state';

/** Signs an L1 action from the venue's documented typed data, independently of the recovery code. */
export async function signL1(
  wallet: PrivateKeyAccount,
  action: unknown,
  nonce: number,
  options: { vaultAddress?: string; expiresAfter?: number; isMainnet?: boolean } = {},
): Promise<HlSignature> {
  const hex = await wallet.signTypedData({
    domain: {
      name: 'Exchange',
      version: '1',
      chainId: 1337,
      verifyingContract: '0x0000000000000000000000000000000000000000',
    },
    types: {
      Agent: [
        { name: 'source', type: 'string' },
        { name: 'connectionId', type: 'bytes32' },
      ],
    },
    primaryType: 'Agent',
    message: {
      source: options.isMainnet === false ? 'b' : 'a',
      connectionId: l1ActionHash(action, nonce, options.vaultAddress, options.expiresAfter),
    },
  });
  return wireSignature(hex);
}

export async function signUserSigned(
  wallet: PrivateKeyAccount,
  primaryType: string,
  fields: { name: string; type: string }[],
  action: Record<string, unknown>,
): Promise<HlSignature> {
  const hex = await wallet.signTypedData({
    domain: {
      name: 'HyperliquidSignTransaction',
      version: '1',
      chainId: parseInt(action.signatureChainId as string, 16),
      verifyingContract: '0x0000000000000000000000000000000000000000',
    },
    types: { [primaryType]: fields },
    primaryType,
    message: action,
  });
  return wireSignature(hex);
}

export function wireSignature(hex: `0x${string}`): HlSignature {
  const { r, s, v } = parseSignature(hex);
  return { r, s, v: Number(v) };
}

export interface HlWorld {
  sim: RunningVenueSim;
  control: SimControl;
  endpoint: string;
}

export async function startHlWorld(): Promise<HlWorld> {
  const sim = await startVenueSim({ seed: 3, tickMs: 0 });
  return { sim, control: new SimControl(sim.url), endpoint: `${sim.url}/dialects/hyperliquid` };
}

/** A wallet of the spec: a private key derived from a label. */
export function hlWallet(label: string): PrivateKeyAccount & { privateKeyHex: Hex } {
  const privateKeyHex = keccak256(toHex(`hl-dialect-spec:${label}`));
  return Object.assign(privateKeyToAccount(privateKeyHex), { privateKeyHex });
}

/** The real ccxt pro class for a wallet, as the live client builds it (integrator fees off). */
export async function hlCcxt(world: HlWorld, wallet: ReturnType<typeof hlWallet>) {
  const exchange = (await createCcxtExchange(
    'hyperliquid',
    { privateKey: wallet.privateKeyHex, walletAddress: wallet.address.toLowerCase() },
    { endpoint: world.endpoint },
  )) as CcxtExchangeLike & {
    options: Record<string, unknown>;
    loadHttpProxyAgent(): Promise<unknown>;
    createOrder(...args: unknown[]): Promise<{ id?: string; status?: string }>;
  };
  await exchange.loadHttpProxyAgent();
  return exchange;
}

/** POSTs a body to the dialect's `/info` or `/exchange`: the status and the parsed answer. */
export async function post(
  world: HlWorld,
  path: '/info' | '/exchange',
  body: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${world.endpoint}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // the venue's 422 is plain text
  }
  return { status: response.status, body: parsed };
}

/** A signed `/exchange` body for an L1 action. */
export async function signedAction(
  wallet: PrivateKeyAccount,
  action: Record<string, unknown>,
  nonce: number,
): Promise<{ action: Record<string, unknown>; nonce: number; signature: HlSignature }> {
  return { action, nonce, signature: await signL1(wallet, action, nonce) };
}

export async function loggedActions(world: HlWorld, user: string): Promise<LoggedAction[]> {
  const response = await fetch(`${world.endpoint}/_sim/actions?user=${user}`);
  return ((await response.json()) as { actions: LoggedAction[] }).actions;
}
