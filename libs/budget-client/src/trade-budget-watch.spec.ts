import type { BudgetAccount, BudgetChangeCause } from '@sts/contracts';
import type { TradeBudget } from './trade-budget';
import { TradeBudgetWatch, type AccountShares } from './trade-budget-watch';

const TRADE = '6f1c1a52-7d0e-4c55-9a57-3c0f3b1d2e4a';
const OTHER = '0b6c0f9e-1f6d-4a1e-8d8e-6b5c2f1a9e3d';
const MAKER: BudgetAccount = { venue: 'lighter', wallet: '0xmaker' };
const HEDGE: BudgetAccount = { venue: 'hyperliquid', wallet: '0xhedge' };

/** A budget.get answer the spec hands out when it chooses. */
class Reads {
  private pending: Array<(budget: TradeBudget | null) => void> = [];

  readonly fetch = (): Promise<TradeBudget | null> =>
    new Promise((resolve) => this.pending.push(resolve));

  get waiting(): number {
    return this.pending.length;
  }

  answer(budget: TradeBudget | null): void {
    const next = this.pending.shift();
    if (!next) {
      throw new Error('no read is waiting');
    }
    next(budget);
  }
}

function held(maker: number, version: number): TradeBudget {
  return {
    tradeId: TRADE,
    rateBudget: maker,
    hedgeRateBudget: null,
    maker: { ...MAKER, share: maker, version },
    hedge: null,
  };
}

/** One account's message: every holder holds `share`; `joined`/`left` name trades (maker legs). */
function change(
  account: BudgetAccount,
  version: number,
  share: number,
  moved: { joined?: string[]; left?: string[] } = {},
  cause: BudgetChangeCause = 'reserved',
): AccountShares {
  return {
    ...account,
    version,
    cause,
    share,
    pace: null,
    joined: new Set((moved.joined ?? []).map((id) => `${id}|maker`)),
    left: new Set((moved.left ?? []).map((id) => `${id}|maker`)),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('TradeBudgetWatch: messages that name only who joined and who left', () => {
  let reads: Reads;
  let watch: TradeBudgetWatch;
  let applied: number[];

  /** A watch whose first read found the trade holding `share` on MAKER at `version`. */
  async function watching(share: number, version: number): Promise<void> {
    const reading = watch.refresh();
    reads.answer(held(share, version));
    await settle();
    // Following a new account reads once more.
    reads.answer(held(share, version));
    await reading;
  }

  beforeEach(() => {
    reads = new Reads();
    applied = [];
    watch = new TradeBudgetWatch(
      {
        fetch: reads.fetch,
        follow: async () => undefined,
        unfollow: () => undefined,
        onClose: () => undefined,
      },
      TRADE,
      (update) => applied.push(update.share),
      {},
    );
  });

  afterEach(() => watch.close());

  it('applies a change naming nobody to the leg holding its account, and not to another account', async () => {
    await watching(40, 10);
    watch.onAccountChange(change(MAKER, 11, 20, { joined: [OTHER] }));
    watch.onAccountChange(change(HEDGE, 12, 5, { joined: [OTHER] }));
    expect(watch.current('maker')).toBe(20);
    expect(watch.current('hedge')).toBeUndefined();
    expect(applied).toEqual([40, 20]);
  });

  it('drops a leg to 0 when it leaves, and applies no later change of the account to it', async () => {
    await watching(40, 10);
    watch.onAccountChange(change(MAKER, 11, 40, { left: [TRADE] }, 'released'));
    expect(watch.current('maker')).toBe(0);
    watch.onAccountChange(change(MAKER, 12, 20, { joined: [OTHER] }));
    watch.onAccountChange(change(MAKER, 13, 20, {}, 'refresh'));
    expect(watch.current('maker')).toBe(0);
  });

  it('takes a leave that arrives behind a newer change (two budget replicas publish in any order)', async () => {
    await watching(20, 10);
    watch.onAccountChange(change(MAKER, 12, 13, { joined: [OTHER] }));
    expect(watch.current('maker')).toBe(13);
    watch.onAccountChange(change(MAKER, 11, 40, { left: [TRADE] }, 'released'));
    expect(watch.current('maker')).toBe(0);
    watch.onAccountChange(change(MAKER, 13, 20, {}, 'refresh'));
    expect(watch.current('maker')).toBe(0);
  });

  it('ignores a join older than the leave it arrives after', async () => {
    await watching(20, 10);
    watch.onAccountChange(change(MAKER, 12, 0, { left: [TRADE] }, 'swept'));
    watch.onAccountChange(change(MAKER, 11, 20, { joined: [TRADE] }, 'adopted'));
    watch.onAccountChange(change(MAKER, 13, 30, {}, 'refresh'));
    expect(watch.current('maker')).toBe(0);
  });

  it.each([
    ['from before its leave', 10],
    ['at the version of its leave', 11],
  ])('does not take a leg back on a read answered %s', async (_when, readVersion) => {
    await watching(20, 10);
    const reading = watch.refresh();
    watch.onAccountChange(change(MAKER, 11, 40, { left: [TRADE] }, 'released'));
    reads.answer(held(40, readVersion));
    await reading;
    watch.onAccountChange(change(MAKER, 12, 20, { joined: [OTHER] }));
    expect(watch.current('maker')).toBe(0);
  });

  it('keeps a leg that joined while a read that found nothing was out (an adoption)', async () => {
    const reading = watch.refresh();
    watch.onAccountChange(change(MAKER, 12, 15, { joined: [TRADE] }, 'adopted'));
    reads.answer(null);
    await reading;
    expect(reads.waiting).toBe(0);
    // The account shrinks for a newcomer: the adopted leg must shrink too.
    watch.onAccountChange(change(MAKER, 13, 10, { joined: [OTHER] }));
    expect(watch.current('maker')).toBe(10);
  });

  it('lets go of the account when a read finds the trade holding nothing', async () => {
    await watching(20, 10);
    const reading = watch.refresh();
    reads.answer(null);
    await reading;
    watch.onAccountChange(change(MAKER, 11, 40, {}, 'refresh'));
    expect(watch.current('maker')).toBe(20);
  });

  it('stays on an account whose share fell to 0 without the leg leaving', async () => {
    await watching(20, 10);
    watch.onAccountChange(change(MAKER, 11, 0, {}, 'resized'));
    expect(watch.current('maker')).toBe(0);
    watch.onAccountChange(change(MAKER, 12, 15, {}, 'resized'));
    expect(watch.current('maker')).toBe(15);
  });

  it('drops a change older than the share it applied', async () => {
    await watching(20, 10);
    watch.onAccountChange(change(MAKER, 9, 40, {}, 'refresh'));
    expect(watch.current('maker')).toBe(20);
    expect(applied).toEqual([20]);
  });
});
