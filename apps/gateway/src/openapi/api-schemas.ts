import { ACCOUNT_SCHEMAS } from './schemas/account-schemas';
import { BALANCE_SCHEMAS } from './schemas/balance-schemas';
import { ERROR_SCHEMAS } from './schemas/error-schemas';
import { MARKET_SCHEMAS } from './schemas/market-schemas';
import { POSITION_SCHEMAS } from './schemas/position-schemas';
import { QUALITY_SCHEMAS } from './schemas/quality-schemas';
import { RESULTS_SCHEMAS } from './schemas/results-schemas';
import type { Schema } from './schemas/schema-helpers';
import { TRADE_EVENT_SCHEMAS } from './schemas/trade-event-schemas';
import { TRADE_SCHEMAS } from './schemas/trade-schemas';
import { WEBHOOK_PAYLOAD_SCHEMAS } from './schemas/webhook-payload-schemas';
import { WEBHOOK_SCHEMAS } from './schemas/webhook-schemas';

/**
 * The bodies the gateway answers with, and those the notifier POSTs to
 * webhook endpoints (`webhooks` of the document), as JSON Schema 2020-12
 * (OpenAPI 3.1).
 * Request bodies are described by the DTOs' decorators; what leaves the
 * gateway is described here, next to nothing else, and every HTTP spec checks
 * the answers it receives against it (`@sts/testing` openApiConformance).
 */
export const API_SCHEMAS: Record<string, Schema> = {
  ...TRADE_SCHEMAS,
  ...TRADE_EVENT_SCHEMAS,
  ...MARKET_SCHEMAS,
  ...ACCOUNT_SCHEMAS,
  ...POSITION_SCHEMAS,
  ...BALANCE_SCHEMAS,
  ...QUALITY_SCHEMAS,
  ...RESULTS_SCHEMAS,
  ...WEBHOOK_SCHEMAS,
  ...WEBHOOK_PAYLOAD_SCHEMAS,
  ...ERROR_SCHEMAS,
};
