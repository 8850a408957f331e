import type { Webhook, WebhookDeliveries as DeliveriesPage } from '@sts/sdk';
import { useCallback, useEffect, useState } from 'react';
import { describeError } from '../api/api-error';
import { StatusBadge } from '../components/trade-status';
import { useSignedIn } from '../session/session';
import { anyPending, lastAttemptOf, lastStatusCode, NONE } from './webhook-model';

/** Deliveries still owed are read again this often: attempts are not pushed. */
const PENDING_REFRESH_MS = 2_000;
const PAGE = 50;

const timeText = (iso: string | null): string =>
  iso === null ? NONE : new Date(iso).toLocaleString();

/**
 * One endpoint's 50 newest deliveries (GET /webhooks/{id}/deliveries): the
 * event, its status, the attempts made, the newest attempt's HTTP status and
 * error, when the next attempt is due, and the `webhook-id` a receiver sees.
 * Read again when `readAgain` changes (a test sent) and, while one is
 * pending, every 2 s, each time telling `onRead` (the endpoint's status may
 * have changed with it).
 */
export function WebhookDeliveries({
  webhook,
  readAgain,
  onRead,
}: {
  webhook: Webhook;
  readAgain: number;
  onRead: () => void;
}) {
  const { api } = useSignedIn();
  const [page, setPage] = useState<DeliveriesPage | null>(null);
  const [error, setError] = useState<string | null>(null);

  const read = useCallback(
    () =>
      api.webhookDeliveries(webhook.id, { limit: PAGE }).then(
        (answer) => {
          setPage(answer);
          setError(null);
        },
        (failure: unknown) => setError(describeError(failure)),
      ),
    [api, webhook.id],
  );

  useEffect(() => {
    void read();
  }, [read, readAgain]);

  const pending = page !== null && anyPending(page.deliveries);
  useEffect(() => {
    if (!pending) {
      return;
    }
    const timer = window.setInterval(() => {
      void read();
      onRead();
    }, PENDING_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [pending, read, onRead]);

  return (
    <section
      aria-labelledby="deliveries-title"
      data-testid="webhook-deliveries"
      data-webhook-id={webhook.id}
    >
      <h2 id="deliveries-title">
        Deliveries to <code>{webhook.url}</code>
      </h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {page === null && !error && <p role="status">Loading…</p>}
      {page !== null && page.deliveries.length === 0 && (
        <p className="muted">Nothing delivered yet: send a test, or wait for an event.</p>
      )}
      {page !== null && page.deliveries.length > 0 && (
        <table data-testid="deliveries-table">
          <caption className="visually-hidden">
            Newest first{page.next_before !== undefined ? `: the ${PAGE} newest` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last status code</th>
              <th scope="col">Last error</th>
              <th scope="col">Next attempt</th>
              <th scope="col">Message id</th>
            </tr>
          </thead>
          <tbody>
            {page.deliveries.map((delivery) => {
              const last = lastAttemptOf(delivery);
              return (
                <tr
                  key={delivery.id}
                  data-testid="delivery-row"
                  data-message-id={delivery.message_id}
                  data-status={delivery.status}
                >
                  <td>{timeText(delivery.created_at)}</td>
                  <td>
                    <code>{delivery.event_type}</code>
                  </td>
                  <td data-testid="delivery-status">
                    <StatusBadge status={delivery.status} />
                  </td>
                  <td data-testid="delivery-attempts">{delivery.attempts}</td>
                  <td
                    data-testid="delivery-last-code"
                    title={last ? `${last.duration_ms} ms, at ${timeText(last.at)}` : undefined}
                  >
                    {lastStatusCode(delivery)}
                  </td>
                  <td data-testid="delivery-last-error">{last?.error ?? NONE}</td>
                  <td data-testid="delivery-next-attempt" data-at={delivery.next_attempt_at ?? ''}>
                    {delivery.status === 'pending' ? timeText(delivery.next_attempt_at) : NONE}
                  </td>
                  <td>
                    <code>{delivery.message_id}</code>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {page?.next_before !== undefined && (
        <p className="muted">
          The {PAGE} newest are shown; older ones: <code>sts webhooks deliveries</code> with{' '}
          <code>--before {page.next_before}</code>.
        </p>
      )}
    </section>
  );
}
