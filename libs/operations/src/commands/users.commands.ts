import { randomUUID } from 'node:crypto';
import { UserEntity, WalletEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';
import type { OpsContext } from '../ops-context';

const ADDRESS = /^0x[0-9a-fA-F]{40,64}$/;

function normaliseWallet(wallet: string): string {
  if (!ADDRESS.test(wallet)) {
    throw new AppError('invalid_request', `not a wallet address: ${wallet}`);
  }
  return wallet.toLowerCase();
}

/** Creates a user (paper mode, or before their first browser sign-in) with its primary wallet. */
export async function createUser(context: OpsContext, options: { wallet: string }) {
  const wallet = normaliseWallet(options.wallet);
  const db = await context.db();
  return db.transaction(async (manager) => {
    if (await manager.getRepository(WalletEntity).existsBy({ address: wallet })) {
      throw new AppError('wallet_already_linked', `wallet ${wallet} already belongs to a user`);
    }
    const user = await manager
      .getRepository(UserEntity)
      .save({ id: randomUUID(), primaryWallet: wallet });
    await manager
      .getRepository(WalletEntity)
      .insert({ address: wallet, userId: user.id, isPrimary: true, verified: true });
    await context.audit(manager, 'users.create', user.id, { wallet });
    return { user_id: user.id, primary_wallet: wallet };
  });
}

/** Links a further wallet on the operator's word (the browser flow proves it by signature). */
export async function linkWallet(context: OpsContext, options: { user: string; wallet: string }) {
  const wallet = normaliseWallet(options.wallet);
  const db = await context.db();
  return db.transaction(async (manager) => {
    if (!(await manager.getRepository(UserEntity).existsBy({ id: options.user }))) {
      throw new AppError('not_found', `no user ${options.user}`);
    }
    const existing = await manager.getRepository(WalletEntity).findOneBy({ address: wallet });
    if (existing && existing.userId !== options.user) {
      throw new AppError('wallet_already_linked', `wallet ${wallet} belongs to another user`);
    }
    if (!existing) {
      await manager
        .getRepository(WalletEntity)
        .insert({ address: wallet, userId: options.user, isPrimary: false, verified: true });
    }
    await context.audit(manager, 'wallets.link', options.user, { wallet });
    return { user_id: options.user, wallet, linked: !existing };
  });
}
