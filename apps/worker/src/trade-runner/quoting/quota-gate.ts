import type { QuotaHold } from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { TradeLegs } from '../trade-legs';

/**
 * Whether the trade's accounts' cumulative request budgets let it rest a
 * maker order (`TradeLegs.cumulativeHold`): while held the quote cycle wants
 * no order, so a resting one comes down and none is placed, and the trade
 * looks again every report period. The trade says so once when held and
 * once when free again: which account, what is left, what it needs.
 */
export class QuotaGate {
  private hold: QuotaHold | null = null;

  constructor(
    private readonly legs: Pick<TradeLegs, 'cumulativeHold' | 'cumulativePollMs'>,
    private readonly log: Logger,
  ) {}

  /** The hold now, or null; logs a change. */
  held(): QuotaHold | null {
    const hold = this.legs.cumulativeHold();
    if ((hold === null) !== (this.hold === null)) {
      if (hold) {
        const what =
          hold.account === 'hedge'
            ? 'the hedges of the resting maker orders hedging there could need'
            : 'a placement needs beyond the hedges of the trades hedging there';
        this.log.warn(
          { account: hold.account, left: hold.left, needed: hold.needed },
          `quoting held: the ${hold.account} account's cumulative request budget has ${hold.left} ` +
            `left, under the ${hold.needed} ${what}`,
        );
      } else {
        this.log.info('quoting resumed: the cumulative request budgets pay for the hedges again');
      }
    }
    this.hold = hold;
    return hold;
  }

  /** How soon to look again (null: no account keeps such a budget). */
  get recheckMs(): number | null {
    return this.legs.cumulativePollMs;
  }
}
