import type { Trade } from '@sts/sdk';

type TradeCosts = Trade['costs'];
type LegCosts = TradeCosts['long'];

const NONE = '—';

/**
 * "Costs and results" of a trade (issue 34): what the venues' own fills came
 * to, as the gateway works it out from the execution log. Every figure is the
 * API's decimal string as given: the console does no arithmetic on money.
 */
export function TradeCostsPanel({ trade }: { trade: Trade }) {
  const { costs } = trade;
  // In the units the trade's target is written in, worded as the page words the target.
  const unit = trade.spread_type;
  return (
    <section aria-labelledby="costs-title" className="trade-costs" data-testid="trade-costs">
      <h2 id="costs-title">Costs and results</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Leg</th>
            <th scope="col">Filled size</th>
            <th scope="col">Average price</th>
            <th scope="col">Fees</th>
            <th scope="col">Fills</th>
          </tr>
        </thead>
        <tbody>
          <LegRow leg="long" costs={costs.long} />
          <LegRow leg="short" costs={costs.short} />
        </tbody>
      </table>
      <dl className="costs-results">
        <dt>Realised spread</dt>
        <dd>
          <Figure testId="costs-realised-spread" value={costs.realised_spread} unit={unit} />
        </dd>
        <dt>Realised spread after fees</dt>
        <dd>
          <Figure
            testId="costs-realised-spread-after-fees"
            value={costs.realised_spread_after_fees}
            unit={unit}
          />
        </dd>
        <dt>Average hedge slippage</dt>
        <dd>
          <Figure testId="costs-hedge-slippage" value={costs.avg_hedge_slippage_bps} unit="bps" />
        </dd>
      </dl>
    </section>
  );
}

function LegRow({ leg, costs }: { leg: 'long' | 'short'; costs: LegCosts }) {
  return (
    <tr data-testid={`costs-${leg}`}>
      <th scope="row">{leg}</th>
      <td data-testid={`costs-${leg}-filled-size`}>{costs.filled_size}</td>
      <td data-testid={`costs-${leg}-avg-price`}>{costs.avg_price ?? NONE}</td>
      <td>
        <span data-testid={`costs-${leg}-fees`}>{feesText(costs.fees)}</span>
        {costs.fills_without_fee > 0 && (
          <>
            {' '}
            <span
              className="tag notice"
              data-testid={`costs-${leg}-fees-incomplete`}
              title={`${costs.fills_without_fee} of ${costs.fills} fills came without a fee from the venue`}
            >
              fees incomplete
            </span>
          </>
        )}
      </td>
      <td data-testid={`costs-${leg}-fills`}>{costs.fills}</td>
    </tr>
  );
}

/** A figure with its unit, or a dash while there is none (null: not yet known or not computable). */
function Figure({ testId, value, unit }: { testId: string; value: string | null; unit: string }) {
  if (value === null) {
    return <span data-testid={testId}>{NONE}</span>;
  }
  return (
    <>
      <span data-testid={testId}>{value}</span> <span className="muted">{unit}</span>
    </>
  );
}

/** One "amount asset" per asset the venue charged in; an unnamed asset says so. */
function feesText(fees: LegCosts['fees']): string {
  if (fees.length === 0) {
    return NONE;
  }
  return fees.map((fee) => `${fee.amount} ${fee.asset ?? '(asset unknown)'}`).join(', ');
}
