import type { WalletEntity } from '@sts/persistence';

export interface WalletView {
  address: string;
  linked_at: string;
  verified: boolean;
}

export const presentWallet = (wallet: WalletEntity): WalletView => ({
  address: wallet.address,
  linked_at: wallet.linkedAt.toISOString(),
  verified: wallet.verified,
});
