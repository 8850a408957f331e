import type { BudgetSharesChanged } from '@sts/budget-client';
import type { Envelope } from '@sts/contracts';
import { ShareLedger } from './share-ledger';

/** Hyperliquid as the venue-limit specs run it: 20 a second per account, 24 for the venue. */
const ledgerOf = (): ShareLedger =>
  new ShareLedger(
    () => 20,
    (venue) => (venue === 'hyperliquid' ? 24 : null),
  );

const FIRST = '0xfirst';
const THIRD = '0xthird';

type Holder = { trade_id: string; role: 'maker' | 'hedge' };

function said(
  ledger: ShareLedger,
  wallet: string,
  version: number,
  share: number,
  holderCount: number,
  names: { joined?: Holder[]; left?: Holder[] } = {},
  cause: BudgetSharesChanged['cause'] = 'released',
): void {
  const payload: BudgetSharesChanged = {
    venue: 'hyperliquid',
    wallet,
    share,
    version,
    cause,
    holder_count: holderCount,
    joined: names.joined ?? [],
    left: names.left ?? [],
  };
  ledger.onChange({ payload } as Envelope<BudgetSharesChanged>);
}

const maker = (tradeId: string): Holder => ({ trade_id: tradeId, role: 'maker' });

/** Two holders of FIRST and one of THIRD at 8 (24 / 3), as of version 5. */
function threeHolders(ledger: ShareLedger): void {
  said(ledger, FIRST, 4, 8, 2, { joined: [maker('a'), maker('b')] }, 'reserved');
  said(ledger, THIRD, 5, 8, 1, { joined: [maker('c')] }, 'reserved');
  said(ledger, FIRST, 5, 8, 2, {}, 'venue_shared');
}

describe('the share ledger judges the venue by version, not by order of arrival', () => {
  it("takes a sweep's refresh heard before the release it read (the leaver left at that version)", () => {
    const ledger = ledgerOf();
    threeHolders(ledger);
    // b releases at version 6: FIRST 12 x 1, THIRD 12 x 1. A sweep read after it, and its
    // refresh of both accounts is published before the release's own messages.
    said(ledger, THIRD, 6, 12, 1, {}, 'refresh');
    said(ledger, FIRST, 6, 12, 1, {}, 'refresh');
    said(ledger, FIRST, 6, 12, 1, { left: [maker('b')] });
    said(ledger, THIRD, 6, 12, 1, {}, 'venue_shared');

    expect(ledger.takeViolations()).toEqual([]);
    expect(ledger.shareOf('b')).toBe(0);
    expect(ledger.venueTotal('hyperliquid')).toBe(24);
  });

  it('flags a version at which the venue was divided past its per-IP limit', () => {
    const ledger = ledgerOf();
    threeHolders(ledger);
    // THIRD grows at version 6 while FIRST, at that version, still has two holders at 8.
    said(ledger, THIRD, 6, 12, 1, {}, 'venue_shared');
    said(ledger, FIRST, 7, 12, 1, { left: [maker('b')] });

    expect(ledger.takeViolations()).toEqual([
      'hyperliquid: 1680 a minute at v6 > venue limit 1440',
    ]);
    // Judged once: the next call reports only what came after.
    expect(ledger.takeViolations()).toEqual([]);
  });

  it("flags an account's message whose share times its holders exceeds the account's limit", () => {
    const ledger = ledgerOf();
    said(ledger, FIRST, 1, 12, 2, { joined: [maker('a'), maker('b')] }, 'reserved');

    expect(ledger.takeViolations()).toEqual(
      expect.arrayContaining(['hyperliquid:0xfirst: 2 x 12 > 20 after v1']),
    );
  });

  it('drops a holder whose leave arrives behind a newer word, and keeps it gone', () => {
    const ledger = ledgerOf();
    said(ledger, FIRST, 1, 10, 2, { joined: [maker('a'), maker('b')] }, 'reserved');
    said(ledger, FIRST, 3, 20, 1, {}, 'refresh');
    said(ledger, FIRST, 2, 20, 1, { left: [maker('b')] });
    // A late word that still names b as joining does not bring it back.
    said(ledger, FIRST, 1, 10, 2, { joined: [maker('b')] }, 'reserved');

    expect(ledger.total({ venue: 'hyperliquid', wallet: FIRST })).toBe(20);
    expect(ledger.shareOf('b')).toBe(0);
    expect(ledger.takeViolations()).toEqual([]);
  });
});
