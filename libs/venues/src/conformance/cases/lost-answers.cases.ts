import { UnknownOrderError, VenueNetworkError } from '../../errors';
import { itWhen, type SuiteContext } from '../suite-context';
import { sleep } from '@sts/platform';

/** How long after settlesByMs a held request has surely reached the venue (the driver's promise). */
const HOLD_ENDS_WITHIN_MS = 1_000;

/**
 * Until the requests the driver holds have reached the venue as at `atMs`:
 * their holds ended as at that time where the driver can, else a sleep.
 */
async function holdsEndedAt(ctx: SuiteContext, atMs: number): Promise<void> {
  const { driver } = ctx.harness;
  if (driver.endHoldsAt) {
    await driver.endHoldsAt(atMs);
  } else {
    await sleep(atMs - Date.now());
  }
}

/** The error of a call whose answer is lost, which must say when its fate is settled. */
async function lostAnswer(
  work: Promise<unknown>,
): Promise<VenueNetworkError & { settlesByMs: number }> {
  const error = await work.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(VenueNetworkError);
  expect((error as VenueNetworkError).settlesByMs).toEqual(expect.any(Number));
  return error as VenueNetworkError & { settlesByMs: number };
}

/**
 * Lost answers: an order request whose answer never comes fails with a
 * VenueNetworkError carrying `settlesByMs`; after that time a look-up by
 * client order id is conclusive (known, or never placed and never will be).
 */
export function lostAnswerCases(ctx: SuiteContext): void {
  lostPlacementCases(ctx);
  unansweredPlacementCases(ctx);
  lostCancelAndReplaceCases(ctx);
}

/** A placement lost before the venue: unknown after settlesByMs, for good. */
function lostPlacementCases(ctx: SuiteContext): void {
  const { loseAnswer } = ctx.capabilities;
  itWhen(loseAnswer === true || loseAnswer === 'placements')(
    'a placement lost before the venue: after settlesByMs it is unknown, stays so, and its id places anew',
    async () => {
      const { client, harness, size, nextId, farBid } = ctx;
      const request = {
        symbol: harness.symbol,
        side: 'buy' as const,
        price: await farBid(),
        size,
        clientOrderId: nextId(),
      };
      await harness.driver.loseNextAnswer!('place', 'before');
      const error = await lostAnswer(client.placePostOnly(request));
      await expect(client.order({ clientOrderId: request.clientOrderId })).rejects.toBeInstanceOf(
        UnknownOrderError,
      );
      await holdsEndedAt(ctx, error.settlesByMs + HOLD_ENDS_WITHIN_MS);
      await harness.driver.advance();
      await expect(client.order({ clientOrderId: request.clientOrderId })).rejects.toBeInstanceOf(
        UnknownOrderError,
      );
      const open = await client.openOrders(harness.symbol);
      expect(open.map((order) => order.clientOrderId)).not.toContain(request.clientOrderId);
      expect((await client.placePostOnly(request)).duplicate).toBe(false);
    },
  );
}

/** Placements executed but unanswered: found by client order id, resting or filled and closed. */
function unansweredPlacementCases(ctx: SuiteContext): void {
  itWhen(!!ctx.capabilities.loseAnswer)(
    'a placement executed but unanswered: the venue knows it by its client order id',
    async () => {
      const { client, harness, farBid, placeBuy } = ctx;
      const price = await farBid();
      await harness.driver.loseNextAnswer!('place', 'after');
      const sentAt = Date.now();
      const attempt = placeBuy(price);
      const error = await lostAnswer(attempt);
      // A request sent cannot settle before it was sent (how late the loss is told varies with load).
      expect(error.settlesByMs).toBeGreaterThan(sentAt);
      const open = await client.openOrders(harness.symbol);
      expect(open.filter((order) => order.price === price)).toHaveLength(1);
      const [order] = open.filter((candidate) => candidate.price === price);
      expect((await client.order({ clientOrderId: order.clientOrderId })).status).toBe('open');
    },
  );

  itWhen(!!ctx.capabilities.loseAnswer)(
    'an IOC executed but unanswered: the venue knows it by its client order id, filled and closed',
    async () => {
      const { client, harness, nextId, size, book } = ctx;
      const request = {
        symbol: harness.symbol,
        side: 'buy' as const,
        price: (await book()).bestAsk!,
        size,
        clientOrderId: nextId(),
      };
      await harness.driver.loseNextAnswer!('place', 'after');
      await lostAnswer(client.placeIoc(request));
      // Closed at once: no open order carries it; only a look-up by client order id finds it.
      const found = await client.order({
        clientOrderId: request.clientOrderId,
        symbol: harness.symbol,
      });
      expect(found.clientOrderId).toBe(request.clientOrderId);
      expect(found.status === 'filled' || found.status === 'canceled').toBe(true);
      expect(Number(found.filledSize)).toBeGreaterThan(0);
    },
  );
}

/** A cancel lost before the venue, a replace executed but unanswered. */
function lostCancelAndReplaceCases(ctx: SuiteContext): void {
  itWhen(ctx.capabilities.loseAnswer === true)(
    'a cancel lost before the venue: after settlesByMs the order is still open',
    async () => {
      const { client, harness, farBid, placeBuy } = ctx;
      const placed = await placeBuy(await farBid());
      await harness.driver.loseNextAnswer!('cancel', 'before');
      const error = await lostAnswer(client.cancel({ clientOrderId: placed.order.clientOrderId }));
      await holdsEndedAt(ctx, error.settlesByMs + HOLD_ENDS_WITHIN_MS);
      const order = await client.order({ clientOrderId: placed.order.clientOrderId });
      expect(order.status).toBe('open');
    },
  );

  // A replace in one request (the paper protocol; a client that replaces in two requests loses
  // a placement's answer, the case above).
  itWhen(ctx.capabilities.loseAnswer === true && !ctx.capabilities.replaceInTwoRequests)(
    'a replace executed but unanswered: the venue has the new order by its client order id, the old one canceled',
    async () => {
      const { client, harness, nextId, farBid, placeBuy, size } = ctx;
      const price = await farBid();
      const placed = await placeBuy(price);
      const next = {
        symbol: harness.symbol,
        side: 'buy' as const,
        price,
        size,
        clientOrderId: nextId(),
      };
      await harness.driver.loseNextAnswer!('replace', 'after');
      await lostAnswer(
        client.replace({ target: { clientOrderId: placed.order.clientOrderId }, next }),
      );
      expect((await client.order({ clientOrderId: next.clientOrderId })).status).toBe('open');
      expect((await client.order({ clientOrderId: placed.order.clientOrderId })).status).toBe(
        'canceled',
      );
    },
  );
}
