import type { TradeEvent } from '@sts/sdk';
import { fillChartModel, linearScale, type PricePoint } from './fill-chart-model';

const WIDTH = 720;
const LEFT = 80;
const RIGHT = 16;
const PRICE_TOP = 24;
const PRICE_BOTTOM = 190;
const SPREAD_TOP = 230;
const SPREAD_BOTTOM = 310;
const HEIGHT = 340;

const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour12: false });
const label = (value: number) => (Math.abs(value) >= 100 ? value.toFixed(2) : value.toPrecision(5));

/**
 * Maker fill prices (circles) against hedge fill prices (squares) over time,
 * and below them each hedged pair's realised spread (bars from the target
 * line: green where the pair met the target, red where it did not).
 */
export function FillChart(props: {
  events: readonly TradeEvent[];
  targetSpread: string;
  condition: string;
  spreadType: string;
}) {
  const model = fillChartModel(props.events, props.targetSpread, props.condition);
  if (model.makerFills.length === 0 && model.hedgeFills.length === 0) {
    return (
      <p className="muted">No fills yet: the chart draws maker and hedge fills as they land.</p>
    );
  }
  const times = [
    ...model.makerFills.map((p) => p.atMs),
    ...model.hedgeFills.map((p) => p.atMs),
    ...model.realised.map((p) => p.atMs),
  ];
  const x = linearScale(times, LEFT, WIDTH - RIGHT);
  const price = linearScale(
    [...model.makerFills, ...model.hedgeFills].map((p) => p.price),
    PRICE_BOTTOM,
    PRICE_TOP,
  );
  const spread = linearScale(
    [model.target, ...model.realised.map((p) => p.spread)],
    SPREAD_BOTTOM,
    SPREAD_TOP,
  );
  const path = (points: readonly PricePoint[]) =>
    points
      .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.atMs).toFixed(1)},${price(p.price).toFixed(1)}`)
      .join(' ');
  const targetY = spread(model.target);
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="fill-chart-title fill-chart-desc"
        data-testid="fill-chart"
      >
        <title id="fill-chart-title">Maker and hedge fill prices, realised spread per pair</title>
        <desc id="fill-chart-desc">
          {`${model.makerFills.length} maker fills, ${model.hedgeFills.length} hedge fills, ` +
            `${model.realised.length} hedged pairs against a target spread of ${props.targetSpread} ${props.spreadType}`}
        </desc>
        <text x={4} y={PRICE_TOP} className="axis">
          {label(price.hi)}
        </text>
        <text x={4} y={PRICE_BOTTOM} className="axis">
          {label(price.lo)}
        </text>
        <line
          x1={LEFT}
          x2={WIDTH - RIGHT}
          y1={PRICE_BOTTOM}
          y2={PRICE_BOTTOM}
          className="axis-line"
        />
        <path d={path(model.makerFills)} className="line-maker" />
        <path d={path(model.hedgeFills)} className="line-hedge" />
        {model.makerFills.map((p, i) => (
          <circle key={`m${i}`} cx={x(p.atMs)} cy={price(p.price)} r={4} className="dot-maker">
            <title>{`maker fill ${p.price} at ${clock(p.atMs)}`}</title>
          </circle>
        ))}
        {model.hedgeFills.map((p, i) => (
          <rect
            key={`h${i}`}
            x={x(p.atMs) - 4}
            y={price(p.price) - 4}
            width={8}
            height={8}
            className="dot-hedge"
          >
            <title>{`hedge fill ${p.price} at ${clock(p.atMs)}`}</title>
          </rect>
        ))}
        <text x={LEFT} y={PRICE_TOP - 8} className="legend">
          ● maker fills ■ hedge fills (price)
        </text>
        <text x={LEFT} y={SPREAD_TOP - 10} className="legend">
          {`realised spread per pair (${props.spreadType}); dashed: target ${props.targetSpread}`}
        </text>
        <text x={4} y={SPREAD_TOP + 4} className="axis">
          {label(spread.hi)}
        </text>
        <text x={4} y={SPREAD_BOTTOM} className="axis">
          {label(spread.lo)}
        </text>
        <line x1={LEFT} x2={WIDTH - RIGHT} y1={targetY} y2={targetY} className="target-line" />
        {model.realised.map((p, i) => {
          const y = spread(p.spread);
          return (
            <rect
              key={`s${i}`}
              x={x(p.atMs) - 3}
              y={Math.min(y, targetY)}
              width={6}
              height={Math.max(1, Math.abs(targetY - y))}
              className={p.metTarget ? 'bar-met' : 'bar-missed'}
            >
              <title>{`pair realised ${p.spread} ${props.spreadType} at ${clock(p.atMs)}`}</title>
            </rect>
          );
        })}
        <text x={LEFT} y={HEIGHT - 8} className="axis">
          {clock(x.lo)}
        </text>
        <text x={WIDTH - RIGHT} y={HEIGHT - 8} className="axis" textAnchor="end">
          {clock(x.hi)}
        </text>
      </svg>
    </figure>
  );
}
