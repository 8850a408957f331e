import { PostOnlyWouldCrossError, VenueNetworkError } from '../../errors';
import type { BatchAnswer, CancelResult, OrderAck, PlaceOrderRequest } from '../../model/orders';
import type { OrderBatch } from '../../venue-client';
import { minus } from '../conformance-tools';
import { itWhen, type SuiteContext } from '../suite-context';

/** The answer of a batch element that must have succeeded. */
function valueOf<T>(answer: BatchAnswer<T> | undefined): T {
  if (!answer?.ok) {
    throw new Error(`the order was refused: ${String(answer?.error)}`);
  }
  return answer.value;
}

/** The error of a batch element that must have failed. */
function errorOf<T>(answer: BatchAnswer<T> | undefined): unknown {
  if (!answer || answer.ok) {
    throw new Error('the order was answered, not refused');
  }
  return answer.error;
}

/** Two far bids a tick apart: orders that rest and never fill during a case. */
async function twoFarBuys(ctx: SuiteContext): Promise<PlaceOrderRequest[]> {
  const far = await ctx.farBid();
  return [ctx.buyRequest(far), ctx.buyRequest(minus(far, ctx.tick()))];
}

const batchOf = (ctx: SuiteContext): OrderBatch => ctx.client.batch!;

/**
 * Batched order requests (`VenueClient.batch`), where the client sends
 * them: every order answered as its own call would answer it, a refusal of
 * one order that order's alone, and a lost answer every order's, each then
 * known by its client order id.
 */
export function batchCases(ctx: SuiteContext): void {
  batchPlacementCases(ctx);
  batchCancelCases(ctx);
}

function batchPlacementCases(ctx: SuiteContext): void {
  const batched = ctx.capabilities.batch === true;
  itWhen(batched)(
    'places post-only orders in one request, each answered alone: two rest, one that would cross is refused',
    async () => {
      const { bestAsk } = await ctx.book();
      const requests = [...(await twoFarBuys(ctx)), ctx.buyRequest(bestAsk!)];
      const answers = await batchOf(ctx).placePostOnly(requests);
      expect(answers).toHaveLength(3);
      const rested = answers.slice(0, 2).map((answer) => valueOf<OrderAck>(answer).order);
      expect(rested.map((order) => [order.clientOrderId, order.status])).toEqual([
        [requests[0]!.clientOrderId, 'open'],
        [requests[1]!.clientOrderId, 'open'],
      ]);
      expect(errorOf(answers[2])).toBeInstanceOf(PostOnlyWouldCrossError);
      const open = (await ctx.client.openOrders(ctx.harness.symbol)).map((o) => o.clientOrderId);
      expect(open).toEqual(expect.arrayContaining(rested.map((order) => order.clientOrderId)));
      expect(open).not.toContain(requests[2]!.clientOrderId);
    },
  );

  itWhen(batched && !!ctx.capabilities.loseAnswer)(
    'a batch executed but unanswered: every order unknown, with when it settles; looked up, each rests',
    async () => {
      const requests = await twoFarBuys(ctx);
      await ctx.harness.driver.loseNextAnswer!('place', 'after');
      const answers = await batchOf(ctx).placePostOnly(requests);
      for (const answer of answers) {
        const error = errorOf(answer);
        expect(error).toBeInstanceOf(VenueNetworkError);
        expect((error as VenueNetworkError).settlesByMs).toEqual(expect.any(Number));
      }
      for (const { clientOrderId, symbol } of requests) {
        expect((await ctx.client.order({ clientOrderId, symbol })).status).toBe('open');
      }
    },
  );
}

function batchCancelCases(ctx: SuiteContext): void {
  itWhen(ctx.capabilities.batch === true)(
    'cancels orders in one request: one resting is canceled, one already closed is not open',
    async () => {
      const requests = await twoFarBuys(ctx);
      (await batchOf(ctx).placePostOnly(requests)).forEach((answer) => valueOf(answer));
      const [first, second] = requests.map(({ clientOrderId, symbol }) => ({
        clientOrderId,
        symbol,
      }));
      expect((await ctx.client.cancel(first!)).outcome).toBe('canceled');
      const answers = await batchOf(ctx).cancel([first!, second!]);
      const [again, canceled] = answers.map((answer) => valueOf<CancelResult>(answer));
      expect(again).toMatchObject({ outcome: 'not_open', order: { status: 'canceled' } });
      expect(canceled).toMatchObject({
        outcome: 'canceled',
        order: { clientOrderId: second!.clientOrderId, status: 'canceled', filledSize: '0' },
      });
      const open = (await ctx.client.openOrders(ctx.harness.symbol)).map((o) => o.clientOrderId);
      expect(open).not.toContain(second!.clientOrderId);
    },
  );
}
