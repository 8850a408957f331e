import type { DataSource } from 'typeorm';
import { transitionTrade } from '@sts/domain';
import { EXECUTING_STATUS_SQL, queryRows, sqlStatus } from '@sts/persistence';

/** A lease this worker holds: `epoch` is the fencing token every write of the trade carries. */
export interface Lease {
  tradeId: string;
  epoch: string;
}

/**
 * How the trade came to this worker. `fresh`: a pending trade, just claimed
 * (now validating). `handover`: nobody held it (a graceful shutdown released
 * it quiet, or it was never run). `takeover`: its holder stopped renewing (a
 * crash): what it did last must be reconciled with the venues.
 */
export type AcquisitionKind = 'fresh' | 'handover' | 'takeover';

export interface Acquisition {
  lease: Lease;
  kind: AcquisitionKind;
  /** The status the trade is in now (validating for a fresh claim). */
  status: string;
  /** The worker whose lease expired (takeover only). */
  previousOwner: string | null;
  /** How long ago (database clock) that lease expired (takeover only). */
  previousExpiredMsAgo: number | null;
}

export interface RenewedLease {
  tradeId: string;
  amendmentVersion: number;
  cancelRequested: boolean;
}

/**
 * The only SQL that moves leases. Every statement is a compare-and-set on the
 * row, so two workers racing for one trade cannot both win, and every
 * acquisition bumps lease_epoch, which fences out the previous holder's writes.
 */
export class LeaseRepository {
  constructor(
    private readonly db: DataSource,
    private readonly workerId: string,
    private readonly ttlMs: number,
  ) {}

  /** A pending trade: pending -> validating, conditional on it still being pending (a DELETE may win). */
  async claimPending(tradeId: string): Promise<Acquisition | null> {
    const { from, to } = transitionTrade('pending', 'validating');
    const rows = await queryRows<{ lease_epoch: string }>(
      this.db.manager,
      `UPDATE trades SET status = $4, lease_owner = $2,
         lease_expires_at = now() + $3 * interval '1 millisecond',
         lease_epoch = lease_epoch + 1, updated_at = now()
       WHERE id = $1 AND status = $5 AND lease_owner IS NULL
       RETURNING lease_epoch`,
      [tradeId, this.workerId, this.ttlMs, to, from],
    );
    if (rows.length === 0) {
      return null;
    }
    return {
      lease: { tradeId, epoch: String(rows[0].lease_epoch) },
      kind: 'fresh',
      status: to,
      previousOwner: null,
      previousExpiredMsAgo: null,
    };
  }

  /** An executing trade whose lease is free or expired. */
  async takeOver(tradeId: string): Promise<Acquisition | null> {
    const rows = await queryRows<{
      lease_epoch: string;
      status: string;
      previous_owner: string | null;
      expired_ms_ago: number | null;
    }>(
      this.db.manager,
      `UPDATE trades t SET lease_owner = $2,
         lease_expires_at = now() + $3 * interval '1 millisecond',
         lease_epoch = t.lease_epoch + 1, updated_at = now()
       FROM (SELECT id, lease_owner, lease_expires_at FROM trades WHERE id = $1 FOR UPDATE) previous
       WHERE t.id = previous.id AND t.status IN ${EXECUTING_STATUS_SQL}
         AND (t.lease_owner IS NULL OR t.lease_expires_at < now())
       RETURNING t.lease_epoch, t.status, previous.lease_owner AS previous_owner,
         (EXTRACT(EPOCH FROM now() - previous.lease_expires_at) * 1000)::float8 AS expired_ms_ago`,
      [tradeId, this.workerId, this.ttlMs],
    );
    if (rows.length === 0) {
      return null;
    }
    const row = rows[0];
    return {
      lease: { tradeId, epoch: String(row.lease_epoch) },
      kind: row.previous_owner === null ? 'handover' : 'takeover',
      status: row.status,
      previousOwner: row.previous_owner,
      previousExpiredMsAgo: row.previous_owner === null ? null : Number(row.expired_ms_ago ?? 0),
    };
  }

  /**
   * Extends every lease still ours. What comes back is what we still hold,
   * with the amendment version and cancel flag, so a control message that was
   * missed is noticed at the next renewal.
   */
  async renew(leases: readonly Lease[]): Promise<RenewedLease[]> {
    if (leases.length === 0) {
      return [];
    }
    const rows = await queryRows<{
      id: string;
      amendment_version: number;
      cancel_requested: boolean;
    }>(
      this.db.manager,
      `UPDATE trades t SET lease_expires_at = now() + $2 * interval '1 millisecond'
       FROM unnest($3::uuid[], $4::bigint[]) AS held(id, epoch)
       WHERE t.id = held.id AND t.lease_epoch = held.epoch AND t.lease_owner = $1
       RETURNING t.id, t.amendment_version, t.cancel_requested_at IS NOT NULL AS cancel_requested`,
      [this.workerId, this.ttlMs, leases.map((l) => l.tradeId), leases.map((l) => l.epoch)],
    );
    return rows.map((row) => ({
      tradeId: row.id,
      amendmentVersion: row.amendment_version,
      cancelRequested: row.cancel_requested,
    }));
  }

  /** Gives a lease up: the next scan of any worker takes the trade without recovering it. */
  async release(lease: Lease): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.db.manager,
      `UPDATE trades SET lease_owner = NULL, lease_expires_at = NULL
       WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3 RETURNING id`,
      [lease.tradeId, this.workerId, lease.epoch],
    );
    return rows.length > 0;
  }

  /**
   * Trades nobody holds: executing ones whose lease is free or expired, and
   * pending ones older than `pendingGraceMs` (their start command was lost or
   * is waiting for a worker with room).
   */
  async findUnheld(limit: number, pendingGraceMs: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.db.manager,
      `SELECT id FROM trades
       WHERE (status IN ${EXECUTING_STATUS_SQL} AND (lease_owner IS NULL OR lease_expires_at < now()))
          OR (status = ${sqlStatus('pending')} AND lease_owner IS NULL
              AND created_at < now() - $2 * interval '1 millisecond')
       ORDER BY lease_expires_at NULLS FIRST, created_at
       LIMIT $1`,
      [limit, pendingGraceMs],
    );
    return rows.map((row) => row.id);
  }
}
