import { keccak256, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ASTER_MESSAGE_TYPES, ASTER_SIGNING_DOMAIN } from './aster-signing';

/** An API wallet's validity the helpers below ask for: a year. */
const YEAR_MS = 365 * 86_400_000;
/** The chain id Aster's docs give for an EVM main wallet's approval signature. */
const EVM_SIGNATURE_CHAIN_ID = 56;

/**
 * Approves `agentKey`'s address as an API wallet of the main wallet, as the
 * venue's app does: `POST /fapi/v3/registerAndApproveAgent` signed by the
 * main wallet's key (futures v3 docs, "Register and Approve Agent"), or by
 * `signWith` to forge one. Returns the venue's answer.
 */
export async function registerApiWallet(
  endpoint: string,
  mainKey: Hex,
  agentKey: Hex,
  options: { canPerpTrade?: boolean; expiresAtMs?: number; signWith?: Hex } = {},
): Promise<{ status: number; body: unknown }> {
  const main = privateKeyToAccount(mainKey);
  const fields: Array<[string, string]> = [
    ['user', main.address],
    ['nonce', String(Date.now() * 1000)],
    ['agentName', 'sts'],
    ['agentAddress', privateKeyToAccount(agentKey).address],
    ['expired', String(options.expiresAtMs ?? Date.now() + YEAR_MS)],
    ['signatureChainId', String(EVM_SIGNATURE_CHAIN_ID)],
    ['canSpotTrade', 'false'],
    ['canPerpTrade', String(options.canPerpTrade ?? true)],
    ['canWithdraw', 'false'],
    ['ipWhitelist', ''],
  ];
  const msg = fields.map(([name, value]) => `${name}=${value}`).join('&');
  const signature = await privateKeyToAccount(options.signWith ?? mainKey).signTypedData({
    domain: { ...ASTER_SIGNING_DOMAIN, chainId: EVM_SIGNATURE_CHAIN_ID },
    types: ASTER_MESSAGE_TYPES,
    primaryType: 'Message',
    message: { msg },
  });
  const response = await fetch(`${endpoint}/fapi/v3/registerAndApproveAgent`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `${new URLSearchParams(fields).toString()}&signature=${signature}`,
  });
  return { status: response.status, body: await response.json() };
}

/**
 * What the live client is given for a harness wallet on the simulated Aster:
 * the main wallet and its own key while the dialect lets a main wallet sign
 * (`main_wallet_signs=accepted`); else an API wallet the main wallet
 * approved, stored as an operator stores it (wallet = main wallet, api key =
 * API wallet address, secret = API wallet private key).
 */
export async function asterLiveCredentials(
  simUrl: string,
  label: string,
  main: { address: string; privateKey: Hex },
): Promise<{ walletAddress: string; privateKey: string; apiKey?: string; secret?: string }> {
  const profile = (await (await fetch(`${simUrl}/control/dialects/aster/profile`)).json()) as {
    readings?: Record<string, { value?: string }>;
  };
  if (profile.readings?.['main_wallet_signs']?.value !== 'refused') {
    return { walletAddress: main.address, privateKey: main.privateKey };
  }
  const agentKey = keccak256(toHex(`sts-aster-api-wallet:${label}`));
  const answer = await registerApiWallet(`${simUrl}/dialects/aster`, main.privateKey, agentKey);
  if (answer.status !== 200) {
    throw new Error(`the API wallet was not approved: ${JSON.stringify(answer.body)}`);
  }
  const agent = privateKeyToAccount(agentKey).address;
  return {
    walletAddress: main.address,
    apiKey: agent,
    secret: agentKey,
    privateKey: agentKey,
  };
}
