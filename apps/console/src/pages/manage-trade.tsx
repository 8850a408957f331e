import type { Trade } from '@sts/sdk';
import { TERMINAL_STATUSES } from '@sts/sdk';
import { useState, type FormEvent } from 'react';
import { describeError } from '../api/api-error';
import { fieldErrorsOf, type FieldErrors } from '../api/field-errors';
import { controlProps, FormField } from '../components/form-field';
import { useSignedIn } from '../session/session';

const AMEND_FIELDS = ['target_size', 'target_spread', 'max_slippage'] as const;

/** Amend (size, spread, slippage) and cancel. */
export function ManageTrade({ trade, onChanged }: { trade: Trade; onChanged: () => void }) {
  const { api } = useSignedIn();
  const [amendment, setAmendment] = useState({
    target_size: '',
    target_spread: '',
    max_slippage: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({ fields: {}, general: [] });
  const [result, setResult] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ended = TERMINAL_STATUSES.has(trade.status);

  const amend = (event: FormEvent) => {
    event.preventDefault();
    const body = Object.fromEntries(
      Object.entries(amendment).filter(([, value]) => value.trim() !== ''),
    );
    setBusy(true);
    setErrors({ fields: {}, general: [] });
    setResult(null);
    api.amendTrade(trade.trade_id, body).then(
      (answer) => {
        setBusy(false);
        setResult(
          answer.body.status === 'amendment_sent'
            ? 'Amendment sent: it applies on the next quote cycle.'
            : `Amendment saved: ${answer.body.warning}`,
        );
        setAmendment({ target_size: '', target_spread: '', max_slippage: '' });
        onChanged();
      },
      (failure: unknown) => {
        setBusy(false);
        setErrors(fieldErrorsOf(failure, AMEND_FIELDS));
      },
    );
  };

  const cancel = () => {
    setBusy(true);
    setResult(null);
    api.cancelTrade(trade.trade_id).then(
      (answer) => {
        setBusy(false);
        setResult(
          answer.body.status === 'canceled'
            ? 'Canceled.'
            : 'Cancel sent: open orders are being canceled.',
        );
        onChanged();
      },
      (failure: unknown) => {
        setBusy(false);
        setErrors({ fields: {}, general: [describeError(failure)] });
      },
    );
  };

  const input = (field: (typeof AMEND_FIELDS)[number], label: string, hint: string) => (
    <FormField name={`amend_${field}`} label={label} hint={hint} error={errors.fields[field]}>
      <input
        {...controlProps(`amend_${field}`, errors.fields[field], hint)}
        value={amendment[field]}
        inputMode="decimal"
        onChange={(event) =>
          setAmendment((current) => ({ ...current, [field]: event.target.value }))
        }
        disabled={ended}
      />
    </FormField>
  );

  return (
    <section aria-labelledby="manage-title">
      <h2 id="manage-title">Amend or cancel</h2>
      {ended ? (
        <p className="muted">This trade has ended.</p>
      ) : (
        <form onSubmit={amend} noValidate>
          {input(
            'target_size',
            'New target size',
            `now ${trade.target_size}; at least the filled ${trade.filled_size}`,
          )}
          {input(
            'target_spread',
            'New target spread',
            `now ${trade.target_spread} ${trade.spread_type}`,
          )}
          {input('max_slippage', 'New max slippage', `now ${trade.max_slippage}`)}
          <button type="submit" disabled={busy}>
            Amend
          </button>{' '}
          <button type="button" className="danger" onClick={cancel} disabled={busy}>
            Cancel trade
          </button>
        </form>
      )}
      {errors.general.map((text) => (
        <p key={text} className="error" role="alert">
          {text}
        </p>
      ))}
      {result && (
        <p role="status" data-testid="manage-result">
          {result}
        </p>
      )}
    </section>
  );
}
