import type { RequestKind } from '@sts/domain';
import { beforeVenueRequest } from '../common/request-meter';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { requestKindOf } from './request-kinds';

/**
 * Every HTTP request the instance sends is paid for as the call it is sent
 * for says (`payingRequests`): a placement's follow-up reads of a queued
 * order too, each waiting for the tokens of the trade's budget that the
 * venue weighs its kind (`requestKindOf`).
 */
export function payRequests(
  exchange: CcxtExchangeLike,
  venue: string,
  costs: Readonly<Record<RequestKind, number>> | undefined,
): void {
  const sender = exchange as unknown as { fetch(...args: unknown[]): Promise<unknown> };
  const send = sender.fetch.bind(exchange);
  sender.fetch = (...args: unknown[]) => {
    const [url, method, , body] = args as [string, string | undefined, unknown, unknown];
    const kind = requestKindOf(venue, { url, method: method ?? 'GET', body });
    const paying = beforeVenueRequest(costs?.[kind] ?? 1);
    return paying ? paying.then(() => send(...args)) : send(...args);
  };
}
