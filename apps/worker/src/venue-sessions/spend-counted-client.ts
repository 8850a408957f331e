import type { DeadManSwitch, OrderBatch, VenueClient } from '@sts/venues';
import { interceptedClient } from './intercepted-client';

/**
 * The order requests a call sends, as a venue's cumulative budget may count
 * them: Hyperliquid counts every action (an order, a cancel, a
 * scheduleCancel), Lighter every create-order and cancel-all transaction. A
 * cancel is counted on Lighter too, where it spends nothing: counting it
 * only makes the budget look smaller until the next reading. A replace is
 * two requests on the live clients (a cancel and a placement).
 */
const ORDER_REQUESTS: Readonly<Partial<Record<keyof VenueClient, number>>> = {
  placePostOnly: 1,
  placeIoc: 1,
  cancel: 1,
  replace: 2,
};

/**
 * The client with its order requests told to `spent` as they go (before the
 * call, whatever its answer: a request the venue refused for want of budget
 * spent nothing, and counting it errs on the safe side), the dead-man
 * switch's armings and disarmings too, and every order of a batched
 * request. Other methods pass through.
 */
export function spendCountedClient(
  client: VenueClient,
  spent: (requests: number) => void,
): VenueClient {
  const wrapped = new Map<PropertyKey, unknown>();
  for (const [name, requests] of Object.entries(ORDER_REQUESTS)) {
    const call = (client[name as keyof VenueClient] as (...args: unknown[]) => unknown).bind(
      client,
    );
    wrapped.set(name, (...args: unknown[]) => {
      spent(requests);
      return call(...args);
    });
  }
  const batch = client.batch;
  if (batch) {
    // Hyperliquid counts every order of a batched action against the address.
    wrapped.set('batch', {
      maxOrders: batch.maxOrders,
      minPlacements: batch.minPlacements,
      placePostOnly: (requests) => {
        spent(requests.length);
        return batch.placePostOnly(requests);
      },
      cancel: (targets) => {
        spent(targets.length);
        return batch.cancel(targets);
      },
    } satisfies OrderBatch);
  }
  let switchOf: { of: DeadManSwitch | null; counted: DeadManSwitch | null } | undefined;
  const countedSwitch = (): DeadManSwitch | null => {
    const of = client.deadManSwitch;
    if (!switchOf || switchOf.of !== of) {
      switchOf = {
        of,
        counted: of && {
          minTimeoutMs: of.minTimeoutMs,
          arm: (timeoutMs) => {
            spent(1);
            return of.arm(timeoutMs);
          },
          disarm: () => {
            spent(1);
            return of.disarm();
          },
        },
      };
    }
    return switchOf.counted;
  };
  return interceptedClient(client, wrapped, countedSwitch);
}
