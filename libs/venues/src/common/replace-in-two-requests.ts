import Big from 'big.js';
import { OrderRejectedError, PostOnlyWouldCrossError } from '../errors';
import type { ReplaceRequest, ReplaceResult } from '../model/orders';
import type { VenueClient } from '../venue-client';

/**
 * `replace` for a venue without an amend: a cancel, then a placement only
 * when the cancel took an order off the book that had filled exactly what
 * the caller expects (an unconfirmed fill state places nothing). A refusal
 * of the placement is returned as `placeError`; a network failure is thrown,
 * leaving the caller to find out what rests.
 */
export async function replaceInTwoRequests(
  client: Pick<VenueClient, 'cancel' | 'placePostOnly'>,
  request: ReplaceRequest,
): Promise<ReplaceResult> {
  const canceled = await client.cancel(request.target);
  if (canceled.outcome !== 'canceled') {
    return { canceled };
  }
  if (
    request.expectedFilledSize !== undefined &&
    !(canceled.order && new Big(canceled.order.filledSize).eq(request.expectedFilledSize))
  ) {
    return { canceled };
  }
  try {
    return { canceled, placed: await client.placePostOnly(request.next) };
  } catch (error) {
    if (error instanceof PostOnlyWouldCrossError || error instanceof OrderRejectedError) {
      return { canceled, placeError: error };
    }
    throw error;
  }
}
