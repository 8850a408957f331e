import type Big from 'big.js';
import type { Side } from '@sts/domain';
import type { BookUpdate, VenueClient } from '@sts/venues';
import type { AccountRestingOrders } from '../venue-sessions/account-resting-orders';

const SKIP_NONE = (): boolean => false;

/** How often an account's resting orders changed: bumped by every order update and disconnect of its stream. */
interface StreamRevision {
  value: number;
}

const revisions = new WeakMap<VenueClient, StreamRevision>();

/**
 * The revision of the account orders that `client`'s stream keeps
 * (AccountSession notes each order update and forgets all on a disconnect):
 * one listener per account, however many trades ask.
 */
function revisionOf(client: VenueClient): StreamRevision {
  let revision = revisions.get(client);
  if (revision === undefined) {
    const counter = { value: 0 };
    revision = counter;
    client.on('order', () => (counter.value += 1));
    client.on('connection', () => (counter.value += 1));
    revisions.set(client, revision);
  }
  return revision;
}

/** One account's totals at the maker-side levels of the last book update a trade of it asked about. */
interface LevelTotals {
  update: BookUpdate | null;
  revision: number;
  side: Side | null;
  totals: Array<Big | undefined>;
}

const totalsByAccount = new WeakMap<AccountRestingOrders, LevelTotals>();

/**
 * Everything an account has resting at a level of a book update on one
 * side, whichever trade placed it: an upper bound of what any one of its
 * trades counts as its own there. One book update reaches every trade on the
 * market, and an account's trades are delivered one after the other
 * (MarketData's groups), so the account's orders are summed once per level
 * and update for all of them instead of once per trade.
 */
export class AccountLevelTotals {
  private readonly stream: StreamRevision;
  /** The account's entry, shared with its other trades. */
  private readonly entry: LevelTotals;

  constructor(
    private readonly orders: AccountRestingOrders,
    client: VenueClient,
    private readonly symbol: string,
    private readonly side: Side,
  ) {
    this.stream = revisionOf(client);
    let entry = totalsByAccount.get(orders);
    if (entry === undefined) {
      entry = { update: null, revision: -1, side: null, totals: [] };
      totalsByAccount.set(orders, entry);
    }
    this.entry = entry;
  }

  /** Grows with every change of the account's resting orders as its stream tells them. */
  get revision(): number {
    return this.stream.value;
  }

  /** The account's total at `price`, level `level` of `update`'s side. */
  at(update: BookUpdate, level: number, price: Big): Big {
    const entry = this.entry;
    if (
      entry.update !== update ||
      entry.revision !== this.stream.value ||
      entry.side !== this.side
    ) {
      entry.update = update;
      entry.revision = this.stream.value;
      entry.side = this.side;
      entry.totals.length = 0;
    }
    let total = entry.totals[level];
    if (total === undefined) {
      total = this.orders.restingAt(this.symbol, this.side, price, SKIP_NONE);
      entry.totals[level] = total;
    }
    return total;
  }
}
