import Big from 'big.js';
import type { Simulator } from '../engine/simulator';

/**
 * Which wallets hold money on which venue. As on a real venue, an account
 * exists for a dialect only once it is funded: `POST
 * /control/venues/<id>/deposits {wallet, amount}` credits the wallet's
 * collateral on that venue, in every protocol (the paper protocol and the
 * venue's dialect share the engine account, the lower-cased wallet). Deposits
 * survive a `/control/reset` (the engine's accounts are rebuilt from them).
 *
 * A funded wallet also holds other assets, each in its own units: the
 * venue's `heldAssets`, plus what `deposits {wallet, amount, asset}` added.
 * The dialects list them beside the margin asset, as the venues' balance
 * answers do; the engine never margins from them.
 */
export class FundedWallets {
  private readonly deposits = new Map<string, Big>();
  /** venue + account → asset → what deposits naming the asset added. */
  private readonly assetDeposits = new Map<string, Map<string, Big>>();

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

  /** Credits the wallet with an asset other than its margin; it margins nothing. */
  depositAsset(
    venueId: string,
    wallet: string,
    asset: string,
    amount: string,
  ): { account: string; asset: string; holding: string } {
    const accountId = wallet.toLowerCase();
    const key = keyOf(venueId, accountId);
    const held = this.assetDeposits.get(key) ?? new Map<string, Big>();
    held.set(asset, (held.get(asset) ?? new Big(0)).plus(amount));
    this.assetDeposits.set(key, held);
    return { account: accountId, asset, holding: held.get(asset)!.toFixed() };
  }

  /**
   * What the wallet holds on the venue besides its margin, asset by asset in
   * its own units: the venue's `heldAssets` once it is funded, plus what
   * deposits naming an asset added. Empty for a wallet never credited.
   */
  holdings(venueId: string, wallet: string): ReadonlyMap<string, Big> {
    const accountId = wallet.toLowerCase();
    const key = keyOf(venueId, accountId);
    const held = new Map<string, Big>();
    if (this.deposits.has(key)) {
      const profile = this.world().venue(venueId).profile;
      for (const [asset, amount] of Object.entries(profile.heldAssets)) {
        held.set(asset, new Big(amount));
      }
    }
    for (const [asset, amount] of this.assetDeposits.get(key) ?? []) {
      held.set(asset, (held.get(asset) ?? new Big(0)).plus(amount));
    }
    return held;
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
