import { getAddress, stringToHex } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { IdentityError } from '../api/api-error';
import type { Eip1193Provider } from './wallet-provider';

/** What the identity provider issues: a session JWT of about 15 minutes. */
export interface IssuedToken {
  token: string;
  expires_at: string;
  user_id: string;
  wallet_address: string;
}

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw await IdentityError.from(response);
  }
  return (await response.json()) as T;
}

/** Signs `message` (UTF-8) with `address` through the wallet (EIP-191 personal_sign). */
export async function personalSign(
  wallet: Eip1193Provider,
  address: string,
  message: string,
): Promise<string> {
  return (await wallet.request({
    method: 'personal_sign',
    params: [stringToHex(message), address],
  })) as string;
}

/**
 * Sign-In with Ethereum (EIP-4361): a nonce from the identity provider, the
 * message signed by the wallet's first account, a JWT in return.
 */
export async function signInWithEthereum(
  wallet: Eip1193Provider,
  identityUrl: string,
): Promise<IssuedToken> {
  const accounts = (await wallet.request({ method: 'eth_requestAccounts' })) as string[];
  if (!accounts?.length) {
    throw new Error('the wallet shared no account');
  }
  const address = getAddress(accounts[0]);
  const chainId = Number(await wallet.request({ method: 'eth_chainId' }));
  const { nonce } = await post<{ nonce: string }>(`${identityUrl}/siwe/nonce`, {});
  const message = createSiweMessage({
    address,
    chainId,
    domain: window.location.host,
    uri: window.location.origin,
    nonce,
    version: '1',
    issuedAt: new Date(),
    statement: 'Sign in to the spread trading console.',
  });
  const signature = await personalSign(wallet, address, message);
  return post<IssuedToken>(`${identityUrl}/siwe/verify`, { message, signature });
}

/** A new JWT for a still valid one. */
export function refreshToken(identityUrl: string, token: string): Promise<IssuedToken> {
  return post<IssuedToken>(`${identityUrl}/siwe/refresh`, {}, token);
}
