import type { components, operations } from './generated/openapi';

type Schemas = components['schemas'];

export type Trade = Schemas['Trade'];
export type TradeStatus = Schemas['TradeStatus'];
export type CreateTradeRequest = Omit<Schemas['CreateTradeRequest'], 'idempotency_key'>;
export type CreateTradeAccepted = Schemas['CreateTradeAccepted'];
export type CreateTradeReplayed = Schemas['CreateTradeReplayed'];
export type AmendTradeRequest = Schemas['AmendTradeRequest'];
export type AmendmentSent = Schemas['AmendmentSent'];
export type AmendmentPersisted = Schemas['AmendmentPersisted'];
export type TradeCanceled = Schemas['TradeCanceled'];
export type CancelSent = Schemas['CancelSent'];
export type CancelAllAnswer = Schemas['CancelAllAnswer'];
export type TradeEvent = Schemas['TradeEvent'];
export type TradeEvents = Schemas['TradeEvents'];
export type Market = Schemas['Market'];
export type MarketSpread = Schemas['MarketSpread'];
/** GET /markets/{market}/spread's query: the legs, and the terms the condition is judged by. */
export type SpreadQuery = NonNullable<operations['getMarketSpread']['parameters']['query']>;
export type MarketEntry = Schemas['MarketEntry'];
export type MaintenanceEntry = Schemas['MaintenanceEntry'];
export type Exchange = Schemas['Exchange'];
/** GET /positions: the venues' positions beside what the service's fills imply. */
export type Positions = Schemas['Positions'];
/** GET /trades/{id}/quality: per maker fill its markouts and hedges; per trade spread and times. */
export type TradeQuality = Schemas['TradeQuality'];
/** GET /quality: the caller's maker fills over a window, grouped (count, mean, p5, p50, p95). */
export type QualityReport = Schemas['QualityReport'];
export type QualityGroup = Schemas['QualityGroup'];
export type QualityDistribution = Schemas['QualityDistribution'];
/** GET /quality's query: `from` and `to` (ISO 8601, [from, to)), `group_by` (venue, market, side). */
export type QualityQuery = NonNullable<operations['getQuality']['parameters']['query']>;

/**
 * GET /trades' page: statuses (one or a list; sent comma-separated in one
 * parameter, `status=active,paused`), how many (1-200), before which trade.
 */
export interface ListTradesQuery {
  status?: TradeStatus | NonNullable<operations['listTrades']['parameters']['query']>['status'];
  limit?: number;
  before?: string;
}
export type Wallet = Schemas['Wallet'];
export type WalletLinkChallenge = Schemas['WalletLinkChallenge'];
export type LinkWalletRequest = Schemas['LinkWalletRequest'];
export type WalletUnlinked = Schemas['WalletUnlinked'];
export type Credential = Schemas['Credential'];
export type AddCredentialRequest = Schemas['AddCredentialRequest'];
export type CredentialDeleted = Schemas['CredentialDeleted'];
/** POST /auth/verify: the session the gateway recognised. */
export type Session = Schemas['Session'];

/** Statuses a trade never leaves (decisions section 3). */
export const TERMINAL_STATUSES: ReadonlySet<TradeStatus> = new Set([
  'completed',
  'canceled',
  'rejected',
  'failed',
]);
