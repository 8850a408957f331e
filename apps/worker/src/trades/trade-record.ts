import Big from 'big.js';
import type { DataSource } from 'typeorm';
import {
  isFastMoveGuardMode,
  isMakerLeg,
  isQuoteMode,
  isSizeType,
  isSpreadCondition,
  isSpreadType,
  isTradeStatus,
  isVenueId,
  resolveFastMoveGuardSettings,
  type FastMoveGuardSettings,
  type MakerLeg,
  type QuoteMode,
  type SizeType,
  type SpreadTerms,
  type TradeStatus,
  type VenueId,
} from '@sts/domain';
import { type TradeEntity, TradeRepository } from '@sts/persistence';

/** The terms PATCH may change while the trade runs (applied on the next quote cycle). */
export interface AmendableTerms {
  targetSize: Big;
  sizeType: SizeType;
  spread: SpreadTerms;
  maxSlippage: Big;
  amendmentVersion: number;
}

/**
 * What a trade is, as its worker runs it: the row's fixed fields, parsed and
 * typed, decimals as Big. What changes while it runs (status, amended terms,
 * a cancel request) is read once into LoadedTrade and from then on kept by
 * the runner's TradeState alone.
 */
export interface TradeRecord {
  id: string;
  userId: string;
  market: string;
  makerLeg: MakerLeg;
  longExchange: VenueId;
  shortExchange: VenueId;
  makerExchange: VenueId;
  makerWallet: string;
  hedgeExchange: VenueId;
  hedgeWallet: string;
  quoteMode: QuoteMode;
  worstSpread?: Big;
  guard: FastMoveGuardSettings;
  rateBudget: number;
  hedgeRateBudget: number | null;
  createdAt: Date;
}

/** The trade row as loaded when its lease is acquired. */
export interface LoadedTrade {
  record: TradeRecord;
  status: TradeStatus;
  terms: AmendableTerms;
  cancelRequested: boolean;
}

export class CorruptTradeError extends Error {
  constructor(tradeId: string, field: string) {
    super(`trade ${tradeId} has an invalid ${field}`);
    this.name = 'CorruptTradeError';
  }
}

const pick = <T>(
  tradeId: string,
  field: string,
  value: unknown,
  guard: (v: unknown) => v is T,
): T => {
  if (!guard(value)) {
    throw new CorruptTradeError(tradeId, field);
  }
  return value;
};

export function amendableTermsOf(row: TradeEntity): AmendableTerms {
  return {
    targetSize: new Big(row.targetSize),
    sizeType: pick(row.id, 'size_type', row.sizeType, isSizeType),
    spread: {
      spreadType: pick(row.id, 'spread_type', row.spreadType, isSpreadType),
      condition: pick(row.id, 'spread_condition', row.spreadCondition, isSpreadCondition),
      targetSpread: new Big(row.targetSpread),
    },
    maxSlippage: new Big(row.maxSlippage),
    amendmentVersion: row.amendmentVersion,
  };
}

export function loadedTradeOf(row: TradeEntity): LoadedTrade {
  return {
    record: tradeRecordOf(row),
    status: pick(row.id, 'status', row.status, isTradeStatus),
    terms: amendableTermsOf(row),
    cancelRequested: row.cancelRequestedAt !== null,
  };
}

function tradeRecordOf(row: TradeEntity): TradeRecord {
  const quoteMode = pick(row.id, 'quote_mode', row.quoteMode ?? 'default', isQuoteMode);
  return {
    id: row.id,
    userId: row.userId,
    market: row.market,
    makerLeg: pick(row.id, 'maker_leg', row.makerLeg, isMakerLeg),
    longExchange: pick(row.id, 'long_exchange', row.longExchange, isVenueId),
    shortExchange: pick(row.id, 'short_exchange', row.shortExchange, isVenueId),
    makerExchange: pick(row.id, 'maker_exchange', row.makerExchange, isVenueId),
    makerWallet: row.makerWallet,
    hedgeExchange: pick(row.id, 'hedge_exchange', row.hedgeExchange, isVenueId),
    hedgeWallet: row.hedgeWallet,
    quoteMode,
    worstSpread: row.worstSpread === null ? undefined : new Big(row.worstSpread),
    guard: resolveFastMoveGuardSettings({
      quoteMode,
      mode:
        row.fastMoveGuard === null
          ? undefined
          : pick(row.id, 'fast_move_guard', row.fastMoveGuard, isFastMoveGuardMode),
      thresholdBps: row.fastMoveGuardBps === null ? undefined : Number(row.fastMoveGuardBps),
      windowMs: row.fastMoveWindowMs ?? undefined,
      settleMs: row.fastMoveSettleMs ?? undefined,
    }),
    rateBudget: row.rateBudget,
    hedgeRateBudget: row.hedgeRateBudget,
    createdAt: row.createdAt,
  };
}

/** Reads trades from Postgres through TradeRepository (the worker writes them through the journal and its leases). */
export class TradeReader {
  private readonly trades: TradeRepository;

  constructor(private readonly db: DataSource) {
    this.trades = new TradeRepository(db.manager);
  }

  /**
   * The trade with its budgets as they are now (`trade_budgets`: a live
   * trade's are its accounts' current shares), not the grant its row was
   * created with: a worker taking a trade over hours later must not start
   * spending at a share the account has since re-divided.
   */
  async load(tradeId: string): Promise<LoadedTrade> {
    const [row, budgets] = await Promise.all([
      this.trades.findById(tradeId),
      this.db.query(
        'SELECT rate_budget, hedge_rate_budget FROM trade_budgets WHERE trade_id = $1',
        [tradeId],
      ) as Promise<Array<{ rate_budget: number; hedge_rate_budget: number | null }>>,
    ]);
    const [current] = budgets;
    return loadedTradeOf(
      current
        ? Object.assign(row, {
            rateBudget: current.rate_budget,
            hedgeRateBudget: current.hedge_rate_budget,
          })
        : row,
    );
  }

  async amendableTerms(tradeId: string): Promise<AmendableTerms & { cancelRequested: boolean }> {
    const row = await this.trades.findById(tradeId);
    return { ...amendableTermsOf(row), cancelRequested: row.cancelRequestedAt !== null };
  }
}
