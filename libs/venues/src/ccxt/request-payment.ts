import type { RequestKind } from '@sts/domain';
import { beforeVenueRequest, inPayingCall } from '../common/request-meter';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { requestKindOf } from './request-kinds';

/**
 * One HTTP request a live client sent: its kind, the budget tokens the venue
 * weighs it, and whether a paying call (`payingRequests`) paid for it. An
 * unmetered request (market loads, a connect's probe) spends the venue's
 * limit outside every trade's budget: the worker counts them so that what
 * the budget does not see is measured, not guessed.
 */
export interface SentVenueRequest {
  kind: RequestKind;
  tokens: number;
  metered: boolean;
}

/**
 * Every HTTP request the instance sends is paid for as the call it is sent
 * for says (`payingRequests`): a placement's follow-up reads of a queued
 * order too, each waiting for the tokens of the trade's budget that the
 * venue weighs its kind (`requestKindOf`). `onRequest` hears each one as it
 * is paid for (before it goes).
 */
export function payRequests(
  exchange: CcxtExchangeLike,
  venue: string,
  costs: Readonly<Record<RequestKind, number>> | undefined,
  onRequest?: (request: SentVenueRequest) => void,
): void {
  const sender = exchange as unknown as { fetch(...args: unknown[]): Promise<unknown> };
  const send = sender.fetch.bind(exchange);
  sender.fetch = (...args: unknown[]) => {
    const [url, method, , body] = args as [string, string | undefined, unknown, unknown];
    const kind = requestKindOf(venue, { url, method: method ?? 'GET', body });
    const tokens = costs?.[kind] ?? 1;
    onRequest?.({ kind, tokens, metered: inPayingCall() });
    const paying = beforeVenueRequest(tokens);
    return paying ? paying.then(() => send(...args)) : send(...args);
  };
}
