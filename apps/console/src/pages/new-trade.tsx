import type { Wallet } from '@sts/sdk';
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { describeError } from '../api/api-error';
import { VENUES } from '../api/console-api';
import { fieldErrorsOf, type FieldErrors } from '../api/field-errors';
import { ConfirmDialog } from '../components/confirm-dialog';
import { controlProps, FormField } from '../components/form-field';
import { SpreadPanel } from '../components/spread-panel';
import { QuotingOptions } from './new-trade-options';
import { VenueNote } from './venue-note';
import { useSignedIn } from '../session/session';
import {
  liveTradeConfirmation,
  needsConfirmation,
  venueChoiceLabel,
  venuesToConfirm,
  type VenuesToConfirm,
} from '../venues/venue-modes';
import { useVenues } from '../venues/venues';
import {
  DECIMAL,
  FIELDS,
  initialForm,
  newIdempotencyKey,
  requestOf,
  type Form,
} from './create-trade-form';

export function NewTradePage() {
  const { api, wallet } = useSignedIn();
  const navigate = useNavigate();
  const [form, setForm] = useState<Form>(() => initialForm(wallet));
  const [errors, setErrors] = useState<FieldErrors>({ fields: {}, general: [] });
  const [wallets, setWallets] = useState<Wallet[]>([]);
  const [listed, setListed] = useState<{ pair: string; markets: string[] }>({
    pair: '',
    markets: [],
  });
  const [submitting, setSubmitting] = useState(false);
  // A create with a live leg (or one of unknown mode) waits here for the trader's word.
  const [confirming, setConfirming] = useState<VenuesToConfirm | null>(null);
  const { book, error: venuesError } = useVenues();
  // One key per trade the form makes: a retried submit after a lost answer finds the same trade.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);

  useEffect(() => {
    api.wallets().then(setWallets, () => undefined);
  }, [api]);

  // The markets both chosen venues list (for the market field's suggestions and the spread panel).
  const { long_exchange: longExchange, short_exchange: shortExchange } = form;
  const pair = `${longExchange}/${shortExchange}`;
  const markets = listed.pair === pair ? listed.markets : [];
  useEffect(() => {
    if (longExchange === shortExchange) {
      return;
    }
    let live = true;
    api.markets([longExchange, shortExchange]).then(
      (list) => live && setListed({ pair, markets: list.map((market) => market.canonical).sort() }),
      () => live && setListed({ pair, markets: [] }),
    );
    return () => {
      live = false;
    };
  }, [api, longExchange, shortExchange, pair]);

  // Editing a field answers the API's complaint about it: the complaint goes until the next submit.
  const set = (field: keyof Form) => (event: { target: { value: string } }) => {
    setForm((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => {
      if (!current.fields[field]) {
        return current;
      }
      const { [field]: _answered, ...rest } = current.fields;
      return { ...current, fields: rest };
    });
  };
  const error = (field: keyof Form) => errors.fields[field];
  const props = (field: keyof Form, hint?: ReactNode) => ({
    ...controlProps(field, error(field), hint),
    value: form[field],
    onChange: set(field),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const venues = venuesToConfirm(form, book);
    if (needsConfirmation(venues)) {
      setConfirming(venues);
      return;
    }
    send();
  };

  const send = () => {
    setSubmitting(true);
    setErrors({ fields: {}, general: [] });
    api.createTrade(requestOf(form), { idempotencyKey }).then(
      (answer) => {
        setIdempotencyKey(newIdempotencyKey());
        void navigate(`/trades/${answer.body.trade_id}`);
      },
      (failure: unknown) => {
        setSubmitting(false);
        const found = fieldErrorsOf(failure, FIELDS);
        if (Object.keys(found.fields).length === 0 && found.general.length === 0) {
          found.general.push(describeError(failure));
        }
        setErrors(found);
        const first = FIELDS.find((field) => found.fields[field]);
        if (first) {
          document.getElementById(first)?.focus();
        }
      },
    );
  };

  const marketKnown = markets.includes(form.market.trim());
  const spreadQuery = useMemo(() => {
    // The condition is asked about with a complete target only (not "-" or "1." half typed).
    const target = form.target_spread.trim();
    const judged = DECIMAL.test(target);
    return {
      long_exchange: form.long_exchange,
      short_exchange: form.short_exchange,
      maker_leg: form.maker_leg,
      spread_type: form.spread_type,
      target_spread: judged ? target : undefined,
      spread_condition: judged ? form.spread_condition : undefined,
    };
  }, [
    form.long_exchange,
    form.short_exchange,
    form.maker_leg,
    form.spread_type,
    form.target_spread,
    form.spread_condition,
  ]);
  const walletOptions = wallets.length ? wallets.map((w) => w.address) : [wallet];
  const venueOptions = VENUES.map((venue) => (
    <option key={venue} value={venue}>
      {venueChoiceLabel(venue, book?.get(venue))}
    </option>
  ));
  const venueNote = (venue: string) => (
    <VenueNote venue={book?.get(venue)} reading={book === null && venuesError === null} />
  );
  const asked = confirming && liveTradeConfirmation(confirming);
  const walletSelect = (field: 'long_wallet' | 'short_wallet') => (
    <select {...props(field)}>
      {walletOptions.map((address) => (
        <option key={address} value={address}>
          {address}
        </option>
      ))}
    </select>
  );

  return (
    <main className="new-trade">
      <h1>New trade</h1>
      <div className="two-columns">
        <form
          onSubmit={submit}
          noValidate
          aria-describedby={errors.general.length ? 'form-errors' : undefined}
        >
          {errors.general.length > 0 && (
            <div id="form-errors" className="error" role="alert">
              {errors.general.map((text) => (
                <p key={text}>{text}</p>
              ))}
            </div>
          )}
          <fieldset>
            <legend>Market and legs</legend>
            <FormField
              name="market"
              label="Market"
              hint="canonical symbol listed on both venues"
              error={error('market')}
            >
              <input
                {...props('market', 'canonical symbol listed on both venues')}
                list="market-options"
                autoComplete="off"
              />
            </FormField>
            <datalist id="market-options">
              {markets.map((market) => (
                <option key={market} value={market} />
              ))}
            </datalist>
            <FormField
              name="long_exchange"
              label="Long venue"
              hint={venueNote(form.long_exchange)}
              error={error('long_exchange')}
            >
              <select {...props('long_exchange', venueNote(form.long_exchange))}>
                {venueOptions}
              </select>
            </FormField>
            <FormField name="long_wallet" label="Long wallet" error={error('long_wallet')}>
              {walletSelect('long_wallet')}
            </FormField>
            <FormField
              name="short_exchange"
              label="Short venue"
              hint={venueNote(form.short_exchange)}
              error={error('short_exchange')}
            >
              <select {...props('short_exchange', venueNote(form.short_exchange))}>
                {venueOptions}
              </select>
            </FormField>
            <FormField name="short_wallet" label="Short wallet" error={error('short_wallet')}>
              {walletSelect('short_wallet')}
            </FormField>
            <FormField
              name="maker_leg"
              label="Maker leg"
              hint="default: long"
              error={error('maker_leg')}
            >
              <select {...props('maker_leg', 'default: long')}>
                <option value="long">long (rests on the long venue)</option>
                <option value="short">short (rests on the short venue)</option>
              </select>
            </FormField>
            <FormField name="execution_type" label="Execution type" error={error('execution_type')}>
              <select {...props('execution_type')}>
                <option value="maker_taker">maker_taker</option>
              </select>
            </FormField>
          </fieldset>
          <fieldset>
            <legend>Spread</legend>
            <FormField
              name="spread_type"
              label="Spread unit"
              hint="default: absolute (USD)"
              error={error('spread_type')}
            >
              <select {...props('spread_type', 'default: absolute (USD)')}>
                <option value="absolute">absolute (USD)</option>
                <option value="percentage">percentage</option>
                <option value="bps">bps</option>
                <option value="ticks">ticks</option>
              </select>
            </FormField>
            <FormField
              name="spread_condition"
              label="Condition"
              hint="default: gte"
              error={error('spread_condition')}
            >
              <select {...props('spread_condition', 'default: gte')}>
                <option value="gte">gte (at least)</option>
                <option value="gt">gt (more than)</option>
                <option value="lte">lte (at most)</option>
                <option value="lt">lt (less than)</option>
                <option value="eq">eq (exactly)</option>
              </select>
            </FormField>
            <FormField
              name="target_spread"
              label="Target spread"
              hint="required, in the spread unit"
              error={error('target_spread')}
            >
              <input
                {...props('target_spread', 'required, in the spread unit')}
                inputMode="decimal"
              />
            </FormField>
          </fieldset>
          <fieldset>
            <legend>Size and slippage</legend>
            <FormField
              name="size_type"
              label="Size unit"
              hint="default: base (token amount)"
              error={error('size_type')}
            >
              <select {...props('size_type', 'default: base (token amount)')}>
                <option value="base">base (token amount)</option>
                <option value="notional">notional (USD)</option>
              </select>
            </FormField>
            <FormField
              name="target_size"
              label="Target size"
              hint="required, positive"
              error={error('target_size')}
            >
              <input {...props('target_size', 'required, positive')} inputMode="decimal" />
            </FormField>
            <FormField
              name="max_slippage"
              label="Max slippage"
              hint="fraction of price: 0.001 = 0.1 %"
              error={error('max_slippage')}
            >
              <input
                {...props('max_slippage', 'fraction of price: 0.001 = 0.1 %')}
                inputMode="decimal"
              />
            </FormField>
          </fieldset>
          <QuotingOptions props={props} error={error} />
          <p className="muted">
            Idempotency key: <code>{idempotencyKey}</code>
          </p>
          <button type="submit" disabled={submitting}>
            {submitting ? 'Creating…' : 'Create trade'}
          </button>
        </form>
        <SpreadPanel market={marketKnown ? form.market.trim() : null} query={spreadQuery} />
      </div>
      <ConfirmDialog
        open={asked !== null}
        title={asked?.title ?? ''}
        confirm={asked?.confirm ?? ''}
        dismiss="Go back"
        testId="live-trade-dialog"
        onClose={(confirmed) => {
          setConfirming(null);
          if (confirmed) {
            send();
          }
        }}
      >
        {asked?.sentences.map((sentence) => (
          <p key={sentence}>{sentence}</p>
        ))}
      </ConfirmDialog>
    </main>
  );
}
