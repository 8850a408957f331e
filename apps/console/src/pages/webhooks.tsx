import type { Webhook, WebhookCreated } from '@sts/sdk';
import { useCallback, useEffect, useState } from 'react';
import { describeError } from '../api/api-error';
import { ConfirmDialog } from '../components/confirm-dialog';
import { StatusBadge } from '../components/trade-status';
import { useSignedIn } from '../session/session';
import { AddWebhook } from './add-webhook';
import { WebhookDeliveries } from './webhook-deliveries';
import { endpointHealth } from './webhook-model';
import { WebhookSecret } from './webhook-secret';

const timeText = (iso: string): string => new Date(iso).toLocaleString();

/**
 * The caller's webhook endpoints (issue 58): each with how its deliveries
 * fare (active, failing since, disabled and why), a test delivery to send,
 * its deliveries to read, delete after a confirmation; the form that adds
 * one, and the new endpoint's signing secret, shown this once.
 */
export function WebhooksPage() {
  const { api } = useSignedIn();
  const [webhooks, setWebhooks] = useState<Webhook[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  /** The create's answer, secret included: in memory only, gone with a reload. */
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  /** The endpoint whose deliveries show. */
  const [shownId, setShownId] = useState<string | null>(null);
  const [readAgain, setReadAgain] = useState(0);
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  const reload = useCallback(() => {
    api.webhooks().then(
      (list) => {
        setWebhooks(list);
        setError(null);
      },
      (failure: unknown) => setError(describeError(failure)),
    );
  }, [api]);
  useEffect(reload, [reload]);

  /** An action on an endpoint: what it did in a line, then the list read again. */
  const act = <T,>(work: Promise<T>, done: (answer: T) => string) => {
    setError(null);
    setMessage(null);
    work.then(
      (answer) => {
        setMessage(done(answer));
        reload();
      },
      (failure: unknown) => setError(describeError(failure)),
    );
  };

  const sendTest = (webhook: Webhook) =>
    act(api.testWebhook(webhook.id), (sent) => {
      setShownId(webhook.id);
      setReadAgain((count) => count + 1);
      return `Test delivery ${sent.message_id} owed to ${webhook.url}: it shows below.`;
    });

  const remove = (webhook: Webhook) => {
    if (shownId === webhook.id) {
      setShownId(null);
    }
    act(
      api.deleteWebhook(webhook.id),
      () => `Deleted the webhook to ${webhook.url}; its pending deliveries were canceled.`,
    );
  };

  const shown = webhooks?.find((webhook) => webhook.id === shownId);
  return (
    <main className="webhooks">
      <h1>Webhooks</h1>
      <p className="muted">
        Endpoints that receive your events as they happen: POSTed by the Standard Webhooks
        specification (signed with the endpoint&apos;s secret) or as a Discord, Slack or Telegram
        message. A delivery that fails is retried for about a day; an endpoint failing for days is
        disabled.
      </p>
      {created && (
        <WebhookSecret key={created.id} created={created} onDone={() => setCreated(null)} />
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {message && (
        <p role="status" data-testid="webhooks-message">
          {message}
        </p>
      )}
      <section aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Your endpoints</h2>
        {webhooks === null && !error && <p role="status">Loading…</p>}
        {webhooks?.length === 0 && <p className="muted">No webhooks yet: add one below.</p>}
        {webhooks !== null && webhooks.length > 0 && (
          <table data-testid="webhooks-table">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Format</th>
                <th scope="col">Description</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {webhooks.map((webhook) => {
                const health = endpointHealth(webhook, timeText);
                return (
                  <tr key={webhook.id} data-testid="webhook-row" data-webhook-id={webhook.id}>
                    <td>
                      <code>{webhook.url}</code>
                    </td>
                    <td data-testid="webhook-events">
                      {webhook.events.map((event) => (
                        <code key={event} className="event-name">
                          {event}
                        </code>
                      ))}
                    </td>
                    <td>{webhook.format}</td>
                    <td>{webhook.description}</td>
                    <td data-testid="webhook-status" data-status={webhook.status}>
                      <StatusBadge status={webhook.status} />
                      {health && <small className="webhook-health">{health}</small>}
                    </td>
                    <td>{timeText(webhook.created_at)}</td>
                    <td className="row-actions">
                      <button
                        type="button"
                        className="secondary"
                        aria-pressed={shownId === webhook.id}
                        aria-label={`Deliveries to ${webhook.url}`}
                        onClick={() => setShownId(shownId === webhook.id ? null : webhook.id)}
                      >
                        Deliveries
                      </button>
                      <button
                        type="button"
                        aria-label={`Send a test to ${webhook.url}`}
                        disabled={webhook.status === 'disabled'}
                        onClick={() => sendTest(webhook)}
                      >
                        Send test
                      </button>
                      <button
                        type="button"
                        className="danger"
                        aria-label={`Delete the webhook to ${webhook.url}`}
                        onClick={() => setDeleting(webhook)}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      {shown && <WebhookDeliveries webhook={shown} readAgain={readAgain} onRead={reload} />}
      <AddWebhook
        onCreated={(answer) => {
          setMessage(null);
          setCreated(answer);
          reload();
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this webhook?"
        confirm="Delete webhook"
        dismiss="Keep it"
        testId="delete-webhook-dialog"
        onClose={(confirmed) => {
          const webhook = deleting;
          setDeleting(null);
          if (confirmed && webhook) {
            remove(webhook);
          }
        }}
      >
        <p>
          Nothing more is sent to <code>{deleting?.url}</code>, and the deliveries it is still owed
          are canceled.
        </p>
        <p>
          Adding it again makes a new endpoint with a new secret, which your receiver must be given.
        </p>
      </ConfirmDialog>
    </main>
  );
}
