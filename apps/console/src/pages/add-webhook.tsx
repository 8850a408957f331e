import type { WebhookCreated, WebhookEventType, WebhookFormat } from '@sts/sdk';
import { useState, type FormEvent } from 'react';
import { fieldErrorsOf, type FieldErrors } from '../api/field-errors';
import { controlProps, FormField } from '../components/form-field';
import { useSignedIn } from '../session/session';
import { createBodyOf, WEBHOOK_EVENTS, WEBHOOK_FORMATS, type WebhookForm } from './webhook-model';

const WEBHOOK_FIELDS = ['url', 'events', 'format', 'description'] as const;
const NO_ERRORS: FieldErrors = { fields: {}, general: [] };
const EMPTY: WebhookForm = {
  url: '',
  events: new Set<WebhookEventType>(['trade.status_changed']),
  format: 'standard',
  description: '',
};

/**
 * Registers an endpoint (POST /webhooks). The API judges the fields, and its
 * complaints go next to the field they name; the answer, with the signing
 * secret it carries this once, goes to `onCreated`.
 */
export function AddWebhook({ onCreated }: { onCreated: (created: WebhookCreated) => void }) {
  const { api } = useSignedIn();
  const [form, setForm] = useState<WebhookForm>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);

  const add = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    api.createWebhook(createBodyOf(form)).then(
      (created) => {
        setBusy(false);
        setForm(EMPTY);
        onCreated(created);
      },
      (failure: unknown) => {
        setBusy(false);
        setErrors(fieldErrorsOf(failure, WEBHOOK_FIELDS));
      },
    );
  };

  const toggle = (type: WebhookEventType, on: boolean) =>
    setForm((current) => {
      const events = new Set(current.events);
      if (on) {
        events.add(type);
      } else {
        events.delete(type);
      }
      return { ...current, events };
    });

  const eventsError = errors.fields['events'];
  return (
    <form
      onSubmit={add}
      className="inline-form add-webhook"
      aria-labelledby="add-webhook"
      noValidate
    >
      <h2 id="add-webhook">Add a webhook</h2>
      {errors.general.map((text) => (
        <p key={text} className="error" role="alert">
          {text}
        </p>
      ))}
      <FormField
        name="url"
        label="URL"
        error={errors.fields['url']}
        hint={
          <>
            where deliveries are POSTed: <code>https:</code>, a public address; for Telegram{' '}
            <code>
              https://api.telegram.org/bot&lt;token&gt;/sendMessage?chat_id=&lt;chat id&gt;
            </code>
          </>
        }
      >
        <input
          {...controlProps('url', errors.fields['url'], true)}
          type="url"
          value={form.url}
          autoComplete="off"
          spellCheck={false}
          placeholder="https://hooks.example.com/sts"
          onChange={(event) => setForm((current) => ({ ...current, url: event.target.value }))}
        />
      </FormField>
      <fieldset
        className="event-choices"
        aria-invalid={eventsError ? true : undefined}
        aria-describedby={eventsError ? 'events-error' : undefined}
      >
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map(({ type, what }) => (
          <label key={type}>
            <input
              type="checkbox"
              name="events"
              value={type}
              checked={form.events.has(type)}
              onChange={(event) => toggle(type, event.target.checked)}
            />{' '}
            <code>{type}</code> <span className="muted">{what}</span>
          </label>
        ))}
        {eventsError && (
          <p id="events-error" className="field-error" role="alert">
            {eventsError}
          </p>
        )}
      </fieldset>
      <FormField name="format" label="Format" error={errors.fields['format']}>
        <select
          {...controlProps('format', errors.fields['format'])}
          value={form.format}
          onChange={(event) =>
            setForm((current) => ({ ...current, format: event.target.value as WebhookFormat }))
          }
        >
          {WEBHOOK_FORMATS.map(({ format, label }) => (
            <option key={format} value={format}>
              {label}
            </option>
          ))}
        </select>
      </FormField>
      <FormField
        name="description"
        label="Description"
        error={errors.fields['description']}
        hint="optional, a note of yours (at most 256 characters)"
      >
        <input
          {...controlProps('description', errors.fields['description'], true)}
          type="text"
          value={form.description}
          onChange={(event) =>
            setForm((current) => ({ ...current, description: event.target.value }))
          }
        />
      </FormField>
      <button type="submit" disabled={busy}>
        {busy ? 'Adding…' : 'Add webhook'}
      </button>
    </form>
  );
}
