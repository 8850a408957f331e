import type { HttpReply } from '../../api/http-kit';
import type { OrderEntry, SignedRequest } from '../../api/order-entry';
import type { DialectProfile } from '../dialect-profiles';
import { ParadexError, type ParadexAuth } from './paradex-auth';
import type { OrderTarget } from './paradex-held-orders';
import { checkOrderSignature, parseOrder, pastReceiveWindow } from './paradex-order-request';
import type { ParadexOrders } from './paradex-orders';
import type { PARADEX_READINGS } from './paradex-readings';

/**
 * How many ids `DELETE /v1/orders/batch` takes: its page gives no bound; the
 * best-practices page speaks of batches of "1-50 orders" for both batch
 * endpoints (assumed to bound the cancels).
 */
const MAX_BATCH_CANCEL = 50;

/**
 * Paradex's batch endpoints (https://docs.paradex.trade/api/prod/orders/batch,
 * …/cancel-batch). A batch is one request: one unit of P4 ("Single batch
 * request = 1 rate limit unit", …/trading/api-best-practices; the route
 * admits it once) and one pass through the order path.
 *
 * `POST /v1/orders/batch`: a JSON list of order requests, 1 to
 * `batch_max_orders` (reading: 10 on the endpoint's page, 50 on the
 * best-practices page), else 400 BATCH_SIZE_OUT_OF_RANGE. "If basic
 * validation (including signature) fails - all orders will be rejected": each
 * order's fields and StarkNet signature are checked before any is queued, and
 * the first failure is the whole request's 400. Then "Orders are queued for
 * risk checking independently": each is queued as `POST /v1/orders` queues one
 * (NEW; a post-only that would cross or too little margin closes it after,
 * with its `cancel_reason`), and a refusal the engine step finds for one
 * order (price or size step, minimum, duplicate client id) is that order's
 * entry in `errors` while the others go on (assumed: the page does not say
 * which checks are "basic"). The answer is 201 `{orders, errors}`; `errors`
 * carries no index (the page's `responses.ErrorResponse`), so ccxt appends
 * them after the orders as rejected orders.
 */
export class ParadexBatchOrders {
  constructor(
    private readonly orders: ParadexOrders,
    private readonly entry: OrderEntry,
    private readonly auth: ParadexAuth,
    private readonly profile: DialectProfile<typeof PARADEX_READINGS>,
  ) {}

  async place(request: SignedRequest, account: string, body: unknown): Promise<HttpReply> {
    const list = listOf(body, Number(this.profile.get('batch_max_orders')));
    const parsed = list.map((item) => {
      const fields = objectOf(item);
      const order = parseOrder(fields);
      checkOrderSignature(this.auth, account, order, fields);
      return {
        order,
        kind: order.instruction === 'IOC' ? ('ioc' as const) : ('post_only' as const),
      };
    });
    const expiresAtMs = Math.min(...parsed.map(({ order }) => order.expiresAtMs));
    const kinds = new Set(parsed.map(({ kind }) => kind));
    const fields = {
      expires_at_ms: expiresAtMs,
      ...(kinds.size === 1 ? { type: [...kinds][0] } : {}),
    };
    return this.entry
      .execute(request, { op: 'place', fields }, (venue) => {
        const orders: unknown[] = [];
        const errors: unknown[] = [];
        for (const { order, kind } of parsed) {
          try {
            orders.push(this.orders.enter(venue, request, order, kind).body);
          } catch (error) {
            if (!(error instanceof ParadexError)) {
              throw error;
            }
            errors.push(error.reply().body);
          }
        }
        return { status: 201, body: { orders, errors } };
      })
      .catch((error: unknown) => {
        throw pastReceiveWindow(error, expiresAtMs);
      });
  }

  /**
   * `DELETE /v1/orders/batch {order_ids?, client_order_ids?}`: 200 `{results}`,
   * one per id, the order ids first, each QUEUED_FOR_CANCELLATION,
   * ALREADY_CLOSED or NOT_FOUND with the order's `id`, `client_id`,
   * `account`, `market` when found (the page's example); the queued ones
   * close after, as a single cancel's. No id at all, or more than 50:
   * BATCH_SIZE_OUT_OF_RANGE (assumed).
   */
  cancel(request: SignedRequest, account: string, body: unknown): Promise<HttpReply> {
    const fields = objectOf(body);
    const targets: OrderTarget[] = [
      ...idsOf(fields, 'order_ids').map((id) => ({ id })),
      ...idsOf(fields, 'client_order_ids').map((clientId) => ({ clientId })),
    ];
    if (targets.length === 0 || targets.length > MAX_BATCH_CANCEL) {
      throw outOfRange(targets.length);
    }
    return this.entry.execute(request, { op: 'cancel', fields: {} }, (venue) => {
      this.orders.cancels.settle(venue);
      const results = targets.map((target) => {
        const outcome = this.orders.cancelOfBatch(venue, request.accountId, target);
        if (outcome.status === 'NOT_FOUND') {
          return {
            ...(target.id !== undefined ? { id: target.id } : { client_id: target.clientId }),
            status: outcome.status,
          };
        }
        const { id, clientId, market, status } = outcome;
        return { id, client_id: clientId, account, market, status };
      });
      return { status: 200, body: { results } };
    });
  }
}

function listOf(body: unknown, max: number): unknown[] {
  if (!Array.isArray(body)) {
    throw new ParadexError(400, 'BINDING_ERROR', 'invalid request body: a list of orders');
  }
  if (body.length === 0 || body.length > max) {
    throw outOfRange(body.length);
  }
  return body;
}

const outOfRange = (size: number): ParadexError =>
  new ParadexError(400, 'BATCH_SIZE_OUT_OF_RANGE', `batch size ${size} is out of range`);

function objectOf(value: unknown): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return value as Record<string, unknown>;
  }
  throw new ParadexError(400, 'BINDING_ERROR', 'invalid request body');
}

function idsOf(fields: Record<string, unknown>, name: string): string[] {
  const value = fields[name];
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value) || !value.every((id) => typeof id === 'string')) {
    throw new ParadexError(400, 'VALIDATION_ERROR', `invalid ${name}`);
  }
  return value as string[];
}
