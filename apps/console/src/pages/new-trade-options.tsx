import type { FieldErrors } from '../api/field-errors';
import type { controlProps } from '../components/form-field';
import { FormField } from '../components/form-field';
import type { Form } from './create-trade-form';

type FieldProps = ReturnType<typeof controlProps> & {
  value: string;
  onChange: (event: { target: { value: string } }) => void;
};

/** The optional fields of a trade: aggressive quoting and the fast-move guard, defaults shown. */
export function QuotingOptions({
  props,
  error,
}: {
  props: (field: keyof Form, hint?: string) => FieldProps;
  error: (field: keyof Form) => FieldErrors['fields'][string];
}) {
  return (
    <fieldset>
      <legend>Aggressive quoting and fast-move guard (optional)</legend>
      <FormField
        name="quote_mode"
        label="Quote mode"
        hint="default: passive (at the touch)"
        error={error('quote_mode')}
      >
        <select {...props('quote_mode', 'default: passive (at the touch)')}>
          <option value="">passive (default)</option>
          <option value="aggressive">aggressive</option>
        </select>
      </FormField>
      <FormField
        name="worst_spread"
        label="Worst spread"
        hint="aggressive only; default: peg to the touch"
        error={error('worst_spread')}
      >
        <input
          {...props('worst_spread', 'aggressive only; default: peg to the touch')}
          inputMode="decimal"
        />
      </FormField>
      <FormField
        name="fast_move_guard"
        label="Fast-move guard"
        hint="default: shadow for aggressive trades"
        error={error('fast_move_guard')}
      >
        <select {...props('fast_move_guard', 'default: shadow for aggressive trades')}>
          <option value="">default</option>
          <option value="shadow">shadow</option>
          <option value="on">on</option>
          <option value="off">off</option>
        </select>
      </FormField>
      <FormField
        name="fast_move_guard_bps"
        label="Guard threshold (bps)"
        hint="0 < x ≤ 1000; default: the quote cushion, at least 10"
        error={error('fast_move_guard_bps')}
      >
        <input
          {...props('fast_move_guard_bps', '0 < x ≤ 1000; default: the quote cushion, at least 10')}
          inputMode="decimal"
        />
      </FormField>
      <FormField
        name="fast_move_window_ms"
        label="Guard window (ms)"
        hint="50 to 5000; default: 250"
        error={error('fast_move_window_ms')}
      >
        <input {...props('fast_move_window_ms', '50 to 5000; default: 250')} inputMode="numeric" />
      </FormField>
      <FormField
        name="fast_move_settle_ms"
        label="Guard settle (ms)"
        hint="50 to 10000; default: 500"
        error={error('fast_move_settle_ms')}
      >
        <input {...props('fast_move_settle_ms', '50 to 10000; default: 500')} inputMode="numeric" />
      </FormField>
    </fieldset>
  );
}
