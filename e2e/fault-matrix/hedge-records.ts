import Big from 'big.js';

/** A log entry as GET /trades/{id}/events answers it (the fields the judge reads). */
export interface LoggedEvent {
  event_type: string;
  data?: Record<string, any>;
}

/** A hedge fill as the venue recorded it. */
export interface VenueHedgeFill {
  client_order_id: string;
  size: string;
}

/** One hedge of a trade (its cause), by its own log and by the venue's fills of its own IOCs. */
export interface HedgeRecord {
  cause: string;
  result: string;
  requested: Big;
  loggedFilled: Big;
  venueFilled: Big;
  /** unhedged_size of its hedge_timeout, if it timed out. */
  timeoutNamed: Big | null;
}

export interface HedgeFinding {
  invariant: 'hedge_outcome_misreported' | 'hedge_timeout_misreported' | 'failed_although_hedged';
  detail: string;
}

const sum = (values: Array<string | undefined>): Big =>
  values.reduce((total, value) => total.plus(value ?? 0), new Big(0));

/**
 * Every hedge that ended (a hedge_outcome), with the venue's fills of the IOCs
 * its hedge_sent entries name: a hedge is judged by its own orders, since a
 * later hedge may take what an earlier one left.
 */
export function hedgeRecords(
  events: readonly LoggedEvent[],
  venueFills: readonly VenueHedgeFill[],
): HedgeRecord[] {
  return events
    .filter((e) => e.event_type === 'hedge_outcome')
    .map((outcome) => {
      const cause = String(outcome.data?.cause);
      const ids = new Set(
        events
          .filter((e) => e.event_type === 'hedge_sent' && e.data?.cause === cause)
          .map((e) => e.data?.client_order_id),
      );
      const timeout = events.find(
        (e) => e.event_type === 'hedge_timeout' && e.data?.cause === cause,
      );
      return {
        cause,
        result: String(outcome.data?.result),
        requested: new Big(outcome.data?.requested_size ?? 0),
        loggedFilled: new Big(outcome.data?.filled_size ?? 0),
        venueFilled: sum(venueFills.filter((f) => ids.has(f.client_order_id)).map((f) => f.size)),
        timeoutNamed: timeout ? new Big(timeout.data?.unhedged_size ?? 0) : null,
      };
    });
}

/**
 * What the hedges' own records claim against the venue:
 * - each hedge_outcome's filled_size is what the venue filled of its IOCs;
 * - a hedge_timeout names at least what its hedge left unhedged in the end (an
 *   IOC at the venue when the timeout passed may fill after it), never more
 *   than the hedge asked for;
 * - a trade failed for a hedge only if one of its hedges ended with size the
 *   venue left unhedged (what a later hedge took back does not undo that).
 */
export function hedgeFindings(
  records: readonly HedgeRecord[],
  failure: { failed: boolean; reason: string },
): HedgeFinding[] {
  const findings: HedgeFinding[] = [];
  for (const record of records) {
    const short = record.requested.minus(record.venueFilled);
    if (!record.loggedFilled.eq(record.venueFilled)) {
      findings.push({
        invariant: 'hedge_outcome_misreported',
        detail: `hedge ${record.cause} reports ${record.loggedFilled.toFixed()} filled (${record.result}); the venue filled ${record.venueFilled.toFixed()} of its IOCs`,
      });
    }
    const named = record.timeoutNamed;
    if (named && (named.lt(short) || named.gt(record.requested))) {
      findings.push({
        invariant: 'hedge_timeout_misreported',
        detail: `hedge ${record.cause}'s hedge_timeout names ${named.toFixed()} unhedged; it asked ${record.requested.toFixed()} and the venue filled ${record.venueFilled.toFixed()} of its IOCs`,
      });
    }
  }
  const endedShort = records.some(
    (r) => (r.result === 'timeout' || r.result === 'rejected') && r.venueFilled.lt(r.requested),
  );
  if (failure.failed && /hedge/i.test(failure.reason) && !endedShort) {
    findings.push({
      invariant: 'failed_although_hedged',
      detail: `failed (${JSON.stringify(failure.reason)}) though the venue filled every hedge in full`,
    });
  }
  return findings;
}
