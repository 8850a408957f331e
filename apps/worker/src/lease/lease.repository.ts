import type { DataSource } from 'typeorm';
import { transitionTrade } from '@sts/domain';
import { TradeRepository } from '@sts/persistence';

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
 * This worker's leases, through TradeRepository's lease statements (each a
 * compare-and-set on the row, so two workers racing for one trade cannot both
 * win; every acquisition bumps lease_epoch, which fences out the previous
 * holder's writes).
 */
export class LeaseRepository {
  private readonly trades: TradeRepository;

  constructor(
    db: DataSource,
    private readonly workerId: string,
    private readonly ttlMs: number,
  ) {
    this.trades = new TradeRepository(db.manager);
  }

  /** A pending trade: pending -> validating, conditional on it still being pending (a DELETE may win). */
  async claimPending(tradeId: string): Promise<Acquisition | null> {
    const transition = transitionTrade('pending', 'validating');
    const epoch = await this.trades.claim(tradeId, this.workerId, this.ttlMs, transition);
    if (epoch === null) {
      return null;
    }
    return {
      lease: { tradeId, epoch },
      kind: 'fresh',
      status: transition.to,
      previousOwner: null,
      previousExpiredMsAgo: null,
    };
  }

  /** An executing trade whose lease is free or expired. */
  async takeOver(tradeId: string): Promise<Acquisition | null> {
    const row = await this.trades.takeOver(tradeId, this.workerId, this.ttlMs);
    if (!row) {
      return null;
    }
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
    const rows = await this.trades.renewLeases(this.workerId, this.ttlMs, leases);
    return rows.map((row) => ({
      tradeId: row.id,
      amendmentVersion: row.amendment_version,
      cancelRequested: row.cancel_requested,
    }));
  }

  /** Gives a lease up: the next scan of any worker takes the trade without recovering it. */
  async release(lease: Lease): Promise<boolean> {
    return this.trades.releaseLease({ ...lease, workerId: this.workerId });
  }

  /**
   * The workers running other trades on this trade's maker account, the one
   * running most first; this worker among them when it runs one too.
   */
  async makerAccountOwners(tradeId: string): Promise<string[]> {
    return this.trades.makerAccountOwners(tradeId);
  }

  /**
   * Trades nobody holds: executing ones whose lease is free or expired, and
   * pending ones older than `pendingGraceMs` (their start command was lost or
   * is waiting for a worker with room).
   */
  async findUnheld(limit: number, pendingGraceMs: number): Promise<string[]> {
    return this.trades.findUnheld(limit, pendingGraceMs);
  }
}
