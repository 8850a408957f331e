import type { WebhookCreated } from '@sts/sdk';
import { useEffect, useRef, useState } from 'react';

/**
 * The new endpoint's signing secret, the one time the API answers it. Kept
 * in this component's state only (never in storage), so a reload, leaving
 * the page or "I have stored it" loses it for good: the warning says so, and
 * the copy button puts it on the clipboard.
 */
export function WebhookSecret({
  created,
  onDone,
}: {
  created: WebhookCreated;
  onDone: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<'copied' | 'refused' | null>(null);

  // The focus goes to the secret as it appears (a new create mounts a new panel): the form is done.
  useEffect(() => {
    heading.current?.focus();
  }, []);

  const copy = () => {
    navigator.clipboard.writeText(created.secret).then(
      () => setCopied('copied'),
      () => setCopied('refused'),
    );
  };

  return (
    <section
      className="webhook-secret"
      aria-labelledby="webhook-secret-title"
      data-testid="webhook-secret-panel"
    >
      <h2 id="webhook-secret-title" tabIndex={-1} ref={heading}>
        Signing secret of the new webhook
      </h2>
      <p className="notice" role="alert">
        Shown this once: copy it now and keep it where your receiver reads it. It is not shown
        again, not after a reload, not on any page, not by the API. If it is lost, delete the
        webhook and add it again.
      </p>
      <p>
        Deliveries to <code>{created.url}</code> are signed with it (Standard Webhooks: verify each
        one with any Standard Webhooks library).
      </p>
      <div className="secret-row">
        <label htmlFor="webhook-secret">Secret</label>
        <input
          id="webhook-secret"
          data-testid="webhook-secret"
          readOnly
          value={created.secret}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.target.select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      {copied === 'copied' && <p role="status">Copied to the clipboard.</p>}
      {copied === 'refused' && (
        <p className="error" role="alert">
          The browser refused the clipboard: select the secret and copy it yourself.
        </p>
      )}
      <button type="button" className="secondary" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}
