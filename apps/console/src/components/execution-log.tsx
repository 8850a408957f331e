import type { TradeEvent } from '@sts/sdk';

/** One line of the execution log, in a trader's words. */
export function summary(event: TradeEvent): string {
  switch (event.event_type) {
    case 'maker_fill':
      return `${event.data.side} ${event.data.size} @ ${event.data.price} on ${event.data.exchange}${event.data.fully_filled ? ' (order filled)' : ''}`;
    case 'hedge_sent':
      return `hedge ${event.data.side} ${event.data.size} sent to ${event.data.exchange}${event.data.price ? ` (limit ${event.data.price})` : ''}`;
    case 'hedge_filled':
      return `hedge ${event.data.side} ${event.data.size} @ ${event.data.price} on ${event.data.exchange}`;
    case 'hedge_outcome':
      return (
        `hedge ${event.data.result}: ${event.data.filled_size} of ${event.data.requested_size}` +
        (event.data.spread_achieved === null ? '' : `, spread ${event.data.spread_achieved}`) +
        (event.data.slippage_bps === null ? '' : `, slippage ${event.data.slippage_bps} bps`)
      );
    case 'hedge_timeout':
      return `hedge on ${event.data.exchange} unconfirmed after ${event.data.waited_ms} ms, ${event.data.unhedged_size} unhedged`;
    case 'chunk_started':
      return `execution started toward ${event.data.target_size} (${event.data.size_type})`;
    case 'chunk_completed':
      return (
        `execution ended (${event.data.reason}) at ${event.data.filled_size}` +
        (event.data.residual_unhedged === '0'
          ? ''
          : `, ${event.data.residual_unhedged} never hedged (${event.data.residual_unwound ?? '0'} unwound)`)
      );
    case 'unwind_sent':
      return `unwind ${event.data.side} ${event.data.size} sent to ${event.data.exchange} (reduce-only, limit ${event.data.price})`;
    case 'unwind_outcome':
      return (
        `unwind ${event.data.result}: ${event.data.filled_size} of ${event.data.requested_size} on ${event.data.exchange}` +
        (event.data.reason === null ? '' : ` (${event.data.reason})`)
      );
    case 'recovery_completed':
      return `recovered: ${event.data.open_orders_canceled} orders canceled, ${event.data.fills_reconciled} fills reconciled`;
    case 'markout':
      return `fill ${event.data.fill_id} ${event.data.horizon_s} s on: mid ${event.data.mid}, markout ${event.data.bps} bps`;
    case 'quoting':
      return `quoted ${(event.data.quoted_ms / 1000).toFixed(1)} s on ${event.data.exchange}: ${event.data.placed} placed, ${event.data.replaced} replaced, ${event.data.canceled} canceled`;
    case 'fast_move_guard':
      return `fast-move guard ${event.data.action}: move ${event.data.move} bps (threshold ${event.data.threshold})`;
    default:
      return '';
  }
}

/** The trade's execution log as it streams in, one line per entry. */
export function ExecutionLog({ events }: { events: readonly TradeEvent[] }) {
  return (
    <>
      {events.length === 0 ? (
        <p className="muted">Nothing recorded yet.</p>
      ) : (
        <table data-testid="execution-log">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Time</th>
              <th scope="col">Entry</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.sequence}>
                <td>{event.sequence}</td>
                <td>
                  <time dateTime={event.created_at}>
                    {new Date(event.created_at).toLocaleTimeString()}
                  </time>
                </td>
                <td>{event.event_type}</td>
                <td>{summary(event)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
