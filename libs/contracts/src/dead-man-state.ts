import { integerField, objectOf, oneOf, optionalStringField, stringField } from './guards';

/**
 * The state of one venue account's dead-man switch as one worker keeps it,
 * put (an envelope) into the JetStream KV bucket `deadManBucket` on every
 * change: each put is also a message on `$KV.<bucket>.<key>`. The worker is
 * stateless; the operator tool (`ops dead-man list`) reads the latest of
 * each (account, worker) here. A worker that stops holding trades on the
 * account deletes its key; a dead worker's keys expire with the bucket's TTL.
 */
export const DEAD_MAN_STATE = 'venue.dead_man_state';

/**
 * - `armed`: the venue cancels the account's orders at `armed_until` unless armed again.
 * - `unavailable`: the venue refused to arm it (`reason`, its words); retried slowly.
 * - `failing`: the last arming failed (network, 5xx); retried at the next tick.
 * - `none`: the venue has no switch (exposure is bounded by other means).
 */
export const DEAD_MAN_STATES = ['armed', 'unavailable', 'failing', 'none'] as const;
export type DeadManStateName = (typeof DEAD_MAN_STATES)[number];

export interface DeadManState {
  venue: string;
  wallet: string;
  worker_id: string;
  state: DeadManStateName;
  /** ISO time the venue cancels at, when known (armed, or failing after an arming that held). */
  armed_until: string | null;
  /** ISO time of the last arming the venue accepted. */
  last_refresh_at: string | null;
  /** Why it is unavailable or failing. */
  reason: string | null;
  /** The timeout armed with (the setting, clamped up to the venue's minimum). */
  timeout_ms: number;
  updated_at: string;
}

/** The KV bucket, named from the deployment's NATS prefix; rows live `ttlMs` after their last put. */
export const deadManBucket = (prefix: string): { name: string; ttlMs: number } => ({
  name: `${prefix.toUpperCase()}_DEAD_MAN`,
  ttlMs: 5 * 60_000,
});

/** KV keys allow `[-/_=.a-zA-Z0-9]`: wallets and worker ids are written base64url. */
const keyPart = (value: string): string => Buffer.from(value, 'utf8').toString('base64url');

/** One row per (venue, wallet, worker): every worker holding trades there arms it independently. */
export const deadManKey = (venue: string, wallet: string, workerId: string): string =>
  `${keyPart(venue)}.${keyPart(wallet)}.${keyPart(workerId)}`;

const nullableString = (record: Record<string, unknown>, field: string): string | null =>
  optionalStringField(DEAD_MAN_STATE, record, field) ?? null;

export function parseDeadManState(value: unknown): DeadManState {
  const record = objectOf(DEAD_MAN_STATE, value);
  return {
    venue: stringField(DEAD_MAN_STATE, record, 'venue'),
    wallet: stringField(DEAD_MAN_STATE, record, 'wallet'),
    worker_id: stringField(DEAD_MAN_STATE, record, 'worker_id'),
    state: oneOf(DEAD_MAN_STATE, record, 'state', DEAD_MAN_STATES),
    armed_until: nullableString(record, 'armed_until'),
    last_refresh_at: nullableString(record, 'last_refresh_at'),
    reason: nullableString(record, 'reason'),
    timeout_ms: integerField(DEAD_MAN_STATE, record, 'timeout_ms'),
    updated_at: stringField(DEAD_MAN_STATE, record, 'updated_at'),
  };
}
