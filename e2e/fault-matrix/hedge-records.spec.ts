import { hedgeFindings, hedgeRecords, type LoggedEvent } from './hedge-records';

const sent = (cause: string, attempt: number): LoggedEvent => ({
  event_type: 'hedge_sent',
  data: { cause, attempt, client_order_id: `${cause}-a${attempt}` },
});
const outcome = (cause: string, result: string, requested: string, filled: string) => ({
  event_type: 'hedge_outcome',
  data: { cause, result, requested_size: requested, filled_size: filled },
});
const timeout = (cause: string, unhedged: string): LoggedEvent => ({
  event_type: 'hedge_timeout',
  data: { cause, unhedged_size: unhedged },
});

/**
 * The venue-hang run that failed on seed 20261123: a hedge of 0.035 timed out
 * (its IOC held past its life), the next maker fill's hedge took the 0.035
 * with it, and the venue ended fully hedged. Judged against the trade's final
 * position, the timeout looked misreported and the failure undeserved; judged
 * hedge by hedge, every record is what the venue did.
 */
const timedOutThenTakenBack: LoggedEvent[] = [
  sent('f-1', 1),
  timeout('f-1', '0.035'),
  outcome('f-1', 'timeout', '0.035', '0'),
  sent('f-2', 1),
  outcome('f-2', 'filled', '0.055', '0.055'),
];

describe('fault matrix: judging each hedge by the venue', () => {
  it('accepts a timed-out hedge whose remainder a later hedge took', () => {
    const records = hedgeRecords(timedOutThenTakenBack, [
      { client_order_id: 'f-2-a1', size: '0.055' },
    ]);
    expect(records.map((r) => [r.cause, r.venueFilled.toFixed()])).toEqual([
      ['f-1', '0'],
      ['f-2', '0.055'],
    ]);
    expect(
      hedgeFindings(records, { failed: true, reason: 'hedge timed out after 3000 ms on paradex' }),
    ).toEqual([]);
  });

  it('refuses a failure for a hedge when every hedge filled in full at the venue', () => {
    // The IOC held by the freeze filled after the timeout: the hedge is whole at the venue.
    const events = [sent('f-1', 1), timeout('f-1', '0.02'), outcome('f-1', 'timeout', '0.02', '0')];
    const records = hedgeRecords(events, [{ client_order_id: 'f-1-a1', size: '0.02' }]);
    expect(
      hedgeFindings(records, { failed: true, reason: 'hedge timed out after 3000 ms on paradex' })
        .map((f) => f.invariant)
        .sort(),
    ).toEqual(['failed_although_hedged', 'hedge_outcome_misreported']);
  });

  it('refuses a hedge_timeout naming less than its hedge left, or more than it asked', () => {
    const events = [
      sent('f-1', 1),
      sent('f-1', 2),
      timeout('f-1', '0.01'),
      outcome('f-1', 'timeout', '0.03', '0.01'),
      sent('f-2', 1),
      timeout('f-2', '0.05'),
      outcome('f-2', 'timeout', '0.02', '0'),
    ];
    const records = hedgeRecords(events, [{ client_order_id: 'f-1-a2', size: '0.01' }]);
    expect(
      hedgeFindings(records, { failed: true, reason: 'hedge timed out' }).map((f) => f.detail),
    ).toEqual([
      "hedge f-1's hedge_timeout names 0.01 unhedged; it asked 0.03 and the venue filled 0.01 of its IOCs",
      "hedge f-2's hedge_timeout names 0.05 unhedged; it asked 0.02 and the venue filled 0 of its IOCs",
    ]);
  });

  it("counts only the venue's fills of the hedge's own IOCs", () => {
    const records = hedgeRecords(timedOutThenTakenBack, [
      { client_order_id: 'f-2-a1', size: '0.055' },
      { client_order_id: 'other-trade', size: '1' },
    ]);
    expect(records.map((r) => r.venueFilled.toFixed())).toEqual(['0', '0.055']);
  });
});
