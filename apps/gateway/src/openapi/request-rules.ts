import { getMetadataStorage } from 'class-validator';
import { DECIMAL_PATTERN, MAX_DECIMAL_STRING_LENGTH, VENUE_IDS } from '@sts/domain';
import { AddCredentialRequest } from '../accounts/credentials/dto/add-credential.dto';
import { VerifySessionRequest } from '../accounts/session/auth.controller';
import { LinkChallengeRequest, LinkWalletRequest } from '../accounts/wallets/dto/link-wallet.dto';
import { MarketsQuery } from '../markets/markets.request';
import { QualityQuery } from '../quality/quality.query';
import { ResultsQuery } from '../results/results.query';
import { SpreadMarketParam, SpreadQuery } from '../spread/spread.request';
import { AmendTradeRequest } from '../trades/dto/amend-trade.request';
import { CreateTradeRequest } from '../trades/dto/create-trade.request';
import { TradeEventsQuery } from '../trades/dto/events.query';
import { ListTradesQuery } from '../trades/dto/list-trades.query';
import { IDEMPOTENCY_KEY_PATTERN } from '../trades/use-cases/create-trade/idempotency-key';
import { CredentialParams, ExchangeParam, WalletAddressParam } from '../validation/path-params';
import { CreateWebhookRequest } from '../webhooks/dto/create-webhook.request';
import { WebhookDeliveriesQuery } from '../webhooks/dto/webhook-deliveries.query';
import { ref, type Schema } from './schemas/schema-helpers';

type Dto = new () => object;
type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];

/** The classes the global ValidationPipe checks request bodies with, named as their schemas are. */
const BODIES: Dto[] = [
  CreateTradeRequest,
  AmendTradeRequest,
  AddCredentialRequest,
  LinkChallengeRequest,
  LinkWalletRequest,
  VerifySessionRequest,
  CreateWebhookRequest,
];

/** The classes it checks query and path parameters with. */
const PARAMETERS: Dto[] = [
  ListTradesQuery,
  TradeEventsQuery,
  MarketsQuery,
  SpreadMarketParam,
  SpreadQuery,
  WebhookDeliveriesQuery,
  ExchangeParam,
  CredentialParams,
  WalletAddressParam,
];

/**
 * Query classes of one operation each, by operationId: their names mean
 * other things on other routes (`group_by` is venue, market or side for
 * quality; day, week, market or venue for results), so their rules are the
 * operation's alone.
 */
const OPERATION_QUERIES: Record<string, Dto> = {
  getQuality: QualityQuery,
  getResults: ResultsQuery,
};

// The sign of a decimal is decided on its value (big.js), after "-0" and "0.00" are read as 0.
const ZERO_OR_NEGATIVE = '^(-|0(\\.0+)?$)';
const NEGATIVE = '^-(?!0(\\.0+)?$)';
const decimal = (not?: string): Schema => ({
  pattern: DECIMAL_PATTERN.source,
  maxLength: MAX_DECIMAL_STRING_LENGTH,
  ...(not ? { not: { pattern: not } } : {}),
});

const patternOf = (value: unknown): string =>
  value instanceof RegExp ? value.source : String(value);

/** What one of the server's validators accepts, as JSON Schema; a rule it cannot say is left out. */
function ruleOf(validator: ValidationMetadata): Schema {
  const [first, second] = validator.constraints ?? [];
  switch (validator.name ?? '') {
    case 'matches':
      return { pattern: patternOf(first) };
    case 'isIn':
      return { enum: first };
    case 'isInt':
      return { type: 'integer' };
    case 'isLength':
      return { minLength: first, ...(second === undefined ? {} : { maxLength: second }) };
    case 'isDecimal':
      return decimal();
    case 'isPositiveDecimal':
      return decimal(ZERO_OR_NEGATIVE);
    case 'isNonNegativeDecimal':
      return decimal(NEGATIVE);
    case 'arrayNotEmpty':
      return { minItems: 1 };
    case 'arrayMaxSize':
      return { maxItems: first };
    case 'arrayUnique':
      return { uniqueItems: true };
    default:
      return {};
  }
}

/**
 * Rules the class-validator metadata cannot carry: an exchange passes the
 * validators by its shape and is then looked up among the venues of the
 * registry (unknown: 400), and the idempotency key is checked by the create
 * itself, so that a missing and a malformed key answer their own codes.
 * `undefined` drops the shape's pattern where the enum says more.
 */
const venueList = `(${VENUE_IDS.join('|')})`;
const NAMED_RULES: Record<string, Schema> = {
  long_exchange: { enum: [...VENUE_IDS], pattern: undefined },
  short_exchange: { enum: [...VENUE_IDS], pattern: undefined },
  exchange: { enum: [...VENUE_IDS], pattern: undefined },
  exchanges: { pattern: `^${venueList}(,${venueList})*$` },
  idempotency_key: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
};

/**
 * Query parameters that are a list in one value: the server takes the
 * parameter once and splits it at the commas (`status=active,paused`), which
 * is OpenAPI's `style: form, explode: false`. A repeated parameter
 * (`status=active&status=paused`) reaches the validator as an array and is
 * refused 400, as is an empty one; so one value, at least one item, each of
 * the enum. The validator's pattern says the same of the joined string.
 */
const LIST_PARAMETERS: Record<string, Schema> = {
  status: ref('TradeStatus'),
};

const HEADER_RULES: Record<string, Schema> = {
  'X-Idempotency-Key': { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
};

/**
 * The field rules of one class, by property name (its parents' included); a
 * validator of each item of an array (`each: true`) rules its `items`.
 */
function fieldRules(dto: Dto): Map<string, Schema> {
  const rules = new Map<string, Schema>();
  for (const validator of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    const known = rules.get(validator.propertyName) ?? {};
    const rule = validator.each
      ? { ...known, items: { ...(known['items'] as Schema | undefined), ...ruleOf(validator) } }
      : { ...known, ...ruleOf(validator) };
    rules.set(validator.propertyName, { ...rule, ...NAMED_RULES[validator.propertyName] });
  }
  return rules;
}

/** Parameter rules by name; a name two classes validate differently is refused (it could not be told apart). */
function parameterRules(): Map<string, Schema> {
  const rules = new Map<string, Schema>(Object.entries(HEADER_RULES));
  for (const dto of PARAMETERS) {
    for (const [name, rule] of fieldRules(dto)) {
      const known = rules.get(name);
      if (known && JSON.stringify(known) !== JSON.stringify(rule)) {
        throw new Error(`OpenAPI: parameter ${name} is validated two ways (${dto.name})`);
      }
      rules.set(name, rule);
    }
  }
  return rules;
}

/**
 * Sets each rule on the schema; an undefined value removes what the decorators said, and the
 * rules of an array's items are set on the items the decorators described.
 */
function apply(schema: Schema, rule: Schema | undefined): void {
  for (const [key, value] of Object.entries(rule ?? {})) {
    if (value === undefined) {
      delete schema[key];
    } else if (key === 'items' && typeof schema['items'] === 'object' && schema['items'] !== null) {
      apply(schema['items'] as Schema, value as Schema);
    } else {
      schema[key] = value;
    }
  }
}

/**
 * A request body's schema as strict as the server: every property's rule from
 * the validators the server runs on it, and no other property
 * (the ValidationPipe's forbidNonWhitelisted answers an unknown one 400).
 */
export function strictBodySchema(name: string, schema: Schema): void {
  const dto = BODIES.find((body) => body.name === name);
  if (!dto) {
    throw new Error(`OpenAPI: request body ${name} is not among the validated bodies`);
  }
  const rules = fieldRules(dto);
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  for (const [property, propertySchema] of Object.entries(properties)) {
    apply(propertySchema, rules.get(property));
  }
  schema['additionalProperties'] = false;
}

/** A parameter of an operation, as Nest's document has it and as this file completes it. */
export interface Parameter {
  [field: string]: unknown;
  name: string;
  in?: string;
  schema?: Schema;
}

/** A list parameter as the server reads it: an array of `items`, comma-separated in one value. */
function listParameter(parameter: Parameter, items: Schema): void {
  const example = parameter.schema?.['example'];
  parameter.style = 'form';
  parameter.explode = false;
  parameter.schema = { type: 'array', items, minItems: 1 };
  if (typeof example === 'string') {
    parameter['example'] = example.split(',');
  }
}

/** An operation's query, path and header parameters with the rules the server checks them by. */
export function strictParameters(operationId: string, parameters: Parameter[]): void {
  const rules = parameterRules();
  const own = OPERATION_QUERIES[operationId];
  for (const [name, rule] of own ? fieldRules(own) : []) {
    rules.set(name, rule);
  }
  for (const parameter of parameters) {
    const items = parameter.in === 'query' ? LIST_PARAMETERS[parameter.name] : undefined;
    if (items) {
      listParameter(parameter, items);
    } else if (parameter.schema) {
      apply(parameter.schema, rules.get(parameter.name));
    }
  }
}
