import type { RequestKind } from '@sts/domain';

/** One HTTP request as ccxt sends it (`fetch(url, method, headers, body)`). */
export interface SentRequest {
  url: string;
  method: string;
  body: unknown;
}

type Classifier = (path: string, method: string, body: Record<string, unknown>) => RequestKind;

/** A request body as an object: ccxt hands JSON as a string, Lighter's form as an object. */
function bodyOf(body: unknown): Record<string, unknown> {
  if (typeof body === 'string') {
    try {
      const parsed: unknown = JSON.parse(body);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

const HL_INFO: Readonly<Record<string, RequestKind>> = {
  orderStatus: 'order_read',
  openOrders: 'open_orders',
  frontendOpenOrders: 'open_orders',
  historicalOrders: 'order_history',
  userFills: 'fills',
  userFillsByTime: 'fills',
  clearinghouseState: 'account',
  spotClearinghouseState: 'account',
  userFunding: 'account',
  l2Book: 'book',
  allMids: 'book',
  meta: 'markets',
  metaAndAssetCtxs: 'markets',
  spotMeta: 'markets',
};

const HL_ACTIONS: Readonly<Record<string, RequestKind>> = {
  order: 'place',
  modify: 'place',
  batchModify: 'place',
  cancel: 'cancel',
  cancelByCloid: 'cancel',
  scheduleCancel: 'dead_man',
};

/** Hyperliquid: `/info` by its `type`, `/exchange` by its action's (HL-RL). */
const hyperliquid: Classifier = (path, _method, body) => {
  if (path.endsWith('/exchange')) {
    const action = body['action'] as { type?: string } | undefined;
    return HL_ACTIONS[action?.type ?? ''] ?? 'action';
  }
  return HL_INFO[String(body['type'] ?? '')] ?? 'other';
};

/** Aster v1/v3 futures paths (AST weights table). */
const aster: Classifier = (path, method) => {
  const last = path.split('/').pop() ?? '';
  switch (last) {
    case 'order':
      return method === 'GET' ? 'order_read' : method === 'DELETE' ? 'cancel' : 'place';
    case 'batchOrders':
    case 'allOpenOrders':
      return method === 'DELETE' ? 'cancel' : 'place';
    case 'openOrder':
      return 'order_read';
    case 'openOrders':
      return 'open_orders';
    case 'allOrders':
      return 'order_history';
    case 'userTrades':
      return 'fills';
    case 'countdownCancelAll':
      return 'dead_man';
    case 'listenKey':
      return 'auth';
    case 'depth':
      return 'book';
    case 'leverage':
    case 'marginType':
    case 'positionSide':
      return 'action';
  }
  if (/^(balance|positionRisk|account|accountWithJoinMargin|income)$/.test(last)) {
    return 'account';
  }
  return /^(exchangeInfo|premiumIndex|fundingRate|fundingInfo|ticker|time|ping)/.test(last) ||
    path.includes('/ticker/')
    ? 'markets'
    : 'other';
};

/** Paradex `/v1/...` (PDX-RL pools: orders, private reads, public). */
const paradex: Classifier = (path, method) => {
  if (/\/orders(\/|$)/.test(path) && !path.includes('orders-history')) {
    if (method === 'POST' || method === 'PUT') return 'place';
    if (method === 'DELETE') return 'cancel';
    return /\/orders$/.test(path) ? 'open_orders' : 'order_read';
  }
  if (path.includes('/orders-history')) return 'order_history';
  if (/\/fills$/.test(path)) return 'fills';
  if (/\/(account|balance|positions)(\/|$)/.test(path)) return 'account';
  if (path.includes('/funding/payments')) return 'account';
  if (/\/(orderbook|bbo)\//.test(path)) return 'book';
  if (/\/(auth|onboarding)$/.test(path)) return 'auth';
  return /\/(markets|system|funding)/.test(path) ? 'markets' : 'other';
};

/** Extended `/api/v1/...` (every request weighs 1 against E1; kinds still name it). */
const extended: Classifier = (path, method) => {
  if (path.includes('/user/deadmanswitch')) return 'dead_man';
  if (/\/user\/order(\/|$)/.test(path) || path.includes('massCancel')) {
    return method === 'DELETE' || path.includes('massCancel') ? 'cancel' : 'place';
  }
  if (path.includes('/user/orders/history')) return 'order_history';
  if (/\/user\/orders\/.+/.test(path)) return 'order_read';
  if (/\/user\/orders$/.test(path)) return 'open_orders';
  if (path.includes('/user/trades')) return 'fills';
  if (path.includes('/user/leverage') && method !== 'GET') return 'action';
  if (path.includes('/user/')) return 'account';
  return path.includes('/orderbook') ? 'book' : 'markets';
};

/** Lighter transaction types (lighter-go `txtypes`): create, cancel, cancel-all, modify. */
const LIGHTER_TX: Readonly<Record<string, RequestKind>> = {
  '14': 'place',
  '15': 'cancel',
  '16': 'dead_man',
  '17': 'place',
};

/** Lighter `/api/v1/...` (LTR-RL weights). */
const lighter: Classifier = (path, _method, body) => {
  const last = path.split('/').pop() ?? '';
  switch (last) {
    case 'sendTx':
    case 'sendTxBatch':
      return LIGHTER_TX[String(body['tx_type'] ?? '')] ?? 'action';
    case 'nextNonce':
      return 'nonce';
    case 'accountActiveOrders':
      return 'open_orders';
    case 'accountInactiveOrders':
      return 'order_history';
    case 'trades':
      return 'fills';
    case 'account':
    case 'accountsByL1Address':
    case 'positionFunding':
      return 'account';
    case 'orderBookOrders':
      return 'book';
  }
  return /^(orderBooks|orderBookDetails|fundings|funding-rates)$/.test(last) ? 'markets' : 'other';
};

const CLASSIFIERS: Readonly<Record<string, Classifier>> = {
  hyperliquid,
  aster,
  paradex,
  extended,
  lighter,
};

/**
 * What a request is, by the venue's own paths and bodies, so that it is paid
 * what the venue weighs it (docs/venues/rate-limits.md). Unknown: `other`,
 * which every venue prices at its dearest ordinary read.
 */
export function requestKindOf(venue: string, request: SentRequest): RequestKind {
  const classify = CLASSIFIERS[venue];
  if (!classify) {
    return 'other';
  }
  const path = request.url.split('?')[0] ?? '';
  return classify(path, request.method.toUpperCase(), bodyOf(request.body));
}
