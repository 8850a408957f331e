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
/** GET /balances: each venue account's margin balance, equity and available margin, with USD totals. */
export type Balances = Schemas['Balances'];
export type AccountBalance = Schemas['AccountBalance'];
/** GET /trades/{id}/quality: per maker fill its markouts and hedges; per trade spread and times. */
export type TradeQuality = Schemas['TradeQuality'];
/** GET /quality: the caller's maker fills over a window, grouped (count, mean, p5, p50, p95). */
export type QualityReport = Schemas['QualityReport'];
export type QualityGroup = Schemas['QualityGroup'];
export type QualityDistribution = Schemas['QualityDistribution'];
/** GET /quality's query: `from` and `to` (ISO 8601, [from, to)), `group_by` (venue, market, side). */
export type QualityQuery = NonNullable<operations['getQuality']['parameters']['query']>;

/**
 * GET /results: the caller's results over [from, to), a row per group
 * (ascending by key; a day or week only when something happened), their
 * totals, the accounts whose funding could not be read now and the count of
 * fills whose fee is not priced in USD. Amounts are USD decimal strings.
 */
export type ResultsReport = Schemas['Results'];
/** A row's key: the UTC date (day; week: its Monday), the canonical market or the exchange id. */
export type ResultsRow = Schemas['ResultRow'];
export type ResultsTotals = Schemas['ResultSums'];
/** An account whose funding history could not be read now: its results hold what was read before. */
export type FundingUnread = Schemas['FundingUnread'];
/**
 * GET /results' query: `from` and `to` (ISO 8601; default the 30 days to
 * now, at most 366), `group_by` (default `day`). The grouping is typed as
 * the answer names it: the document's parameter lists quality's groupings.
 */
export type ResultsQuery = Omit<
  NonNullable<operations['getResults']['parameters']['query']>,
  'group_by'
> & { group_by?: ResultsReport['group_by'] };

/**
 * GET /trades' page: statuses (one or a list; sent comma-separated in one
 * parameter, `status=active,paused`), how many (1-200), before which trade.
 */
export interface ListTradesQuery {
  status?: TradeStatus | NonNullable<operations['listTrades']['parameters']['query']>['status'];
  limit?: number;
  before?: string;
}
/** An event type a webhook endpoint can ask for (`trade.fill`, `system.kill_switch`...). */
export type WebhookEventType = Schemas['WebhookEventType'];
/** What a delivery's body is: `standard` (Standard Webhooks, signed) or a chat service's message. */
export type WebhookFormat = Schemas['WebhookFormat'];
/**
 * POST /webhooks: `url`, `events`, and optionally `format` (the API's
 * default: `standard`) and `description`.
 */
export type CreateWebhookRequest = Omit<Schemas['CreateWebhookRequest'], 'format'> & {
  format?: WebhookFormat;
};
/** The endpoint as registered, with its signing `secret` (`whsec_...`): answered this once. */
export type WebhookCreated = Schemas['WebhookCreated'];
/** An endpoint as read back: never its secret; `status` active, failing or disabled. */
export type Webhook = Schemas['Webhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
/** A page of an endpoint's deliveries, newest first; `next_before` when older ones follow. */
export type WebhookDeliveries = Schemas['WebhookDeliveries'];
/** GET /webhooks/{id}/deliveries' query: `limit` (1-200, default 50), `before` (a delivery id). */
export type WebhookDeliveriesQuery = NonNullable<
  operations['listWebhookDeliveries']['parameters']['query']
>;
/** POST /webhooks/{id}/test: the `message_id` (`webhook-id`) of the test delivery owed. */
export type WebhookTestSent = Schemas['WebhookTestSent'];
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
