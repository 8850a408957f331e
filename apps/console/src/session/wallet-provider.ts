import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { isHex, type Hex } from 'viem';

/** The part of EIP-1193 the console uses: accounts, chain id and personal_sign. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

export type WalletKind = 'injected' | 'development';

const DEV_KEYS = 'sts-console.development-wallet.keys';

/**
 * The development wallet (paper fleets only): viem local accounts whose
 * private keys live in this browser's localStorage, generated on first use.
 * Its first account signs in; further ones can be linked to the account.
 */
export class DevelopmentWallet implements Eip1193Provider {
  private accounts(): PrivateKeyAccount[] {
    return this.keys().map((key) => privateKeyToAccount(key));
  }

  private keys(): Hex[] {
    const stored = JSON.parse(localStorage.getItem(DEV_KEYS) ?? '[]') as unknown[];
    const keys = stored.filter((key): key is Hex => typeof key === 'string' && isHex(key));
    if (keys.length === 0) {
      keys.push(generatePrivateKey());
      localStorage.setItem(DEV_KEYS, JSON.stringify(keys));
    }
    return keys;
  }

  /** A further development account (to link as a second wallet). */
  addAccount(): string {
    const keys = [...this.keys(), generatePrivateKey()];
    localStorage.setItem(DEV_KEYS, JSON.stringify(keys));
    return privateKeyToAccount(keys[keys.length - 1]).address;
  }

  async request(args: { method: string; params?: readonly unknown[] }): Promise<unknown> {
    switch (args.method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return this.accounts().map((account) => account.address);
      case 'eth_chainId':
        return '0x1';
      case 'personal_sign': {
        const [message, address] = (args.params ?? []) as [Hex, string];
        const account = this.accounts().find(
          (candidate) => candidate.address.toLowerCase() === String(address).toLowerCase(),
        );
        if (!account) {
          throw new Error(`the development wallet holds no key for ${address}`);
        }
        return account.signMessage({ message: { raw: message } });
      }
      default:
        throw new Error(`the development wallet does not support ${args.method}`);
    }
  }
}

export function walletOf(kind: WalletKind): Eip1193Provider | undefined {
  return kind === 'injected' ? window.ethereum : new DevelopmentWallet();
}

export async function walletAccounts(wallet: Eip1193Provider): Promise<string[]> {
  return ((await wallet.request({ method: 'eth_accounts' })) as string[]) ?? [];
}
