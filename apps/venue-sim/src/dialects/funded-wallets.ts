import Big from 'big.js';
import type { Simulator } from '../engine/simulator';

/**
 * Which wallets hold money on which venue. As on a real venue, an account
 * exists for a dialect only once it is funded: `POST
 * /control/venues/<id>/deposits {wallet, amount}` credits the wallet's
 * collateral on that venue, in every protocol (the paper protocol and the
 * venue's dialect share the engine account, the lower-cased wallet). Deposits
 * survive a `/control/reset` (the engine's accounts are rebuilt from them).
 */
export class FundedWallets {
  private readonly deposits = new Map<string, Big>();

  constructor(private readonly world: () => Simulator) {}

  deposit(
    venueId: string,
    wallet: string,
    amount: string,
  ): { account: string; collateral: string } {
    const accountId = wallet.toLowerCase();
    const key = keyOf(venueId, accountId);
    const total = (this.deposits.get(key) ?? new Big(0)).plus(amount);
    this.deposits.set(key, total);
    const venue = this.world().venue(venueId);
    const existing = venue.accounts.get(accountId);
    if (existing) {
      existing.collateral = existing.collateral.plus(amount);
    } else {
      venue.account(accountId).collateral = new Big(amount);
    }
    return { account: accountId, collateral: venue.account(accountId).collateral.toString() };
  }

  isFunded(venueId: string, wallet: string): boolean {
    return this.deposits.has(keyOf(venueId, wallet.toLowerCase()));
  }

  /**
   * The engine account of a funded wallet, created with its deposits when the
   * world was reset since; undefined for a wallet that never deposited.
   */
  account(venueId: string, wallet: string): string | undefined {
    const accountId = wallet.toLowerCase();
    const total = this.deposits.get(keyOf(venueId, accountId));
    if (!total) {
      return undefined;
    }
    const venue = this.world().venue(venueId);
    if (!venue.accounts.has(accountId)) {
      venue.account(accountId).collateral = total;
    }
    return accountId;
  }
}

const keyOf = (venueId: string, accountId: string): string => `${venueId}\u0000${accountId}`;
