import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A spread trade. Decimals are numeric columns read back as strings (never floats). */
@Entity({ name: 'trades' })
export class TradeEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'user_id', type: 'text' })
  userId: string;

  @Column({ type: 'text' })
  market: string;

  @Column({ name: 'long_exchange', type: 'text' })
  longExchange: string;

  @Column({ name: 'long_wallet', type: 'text' })
  longWallet: string;

  @Column({ name: 'short_exchange', type: 'text' })
  shortExchange: string;

  @Column({ name: 'short_wallet', type: 'text' })
  shortWallet: string;

  @Column({ name: 'maker_leg', type: 'text' })
  makerLeg: string;

  @Column({ name: 'maker_exchange', type: 'text' })
  makerExchange: string;

  @Column({ name: 'maker_wallet', type: 'text' })
  makerWallet: string;

  @Column({ name: 'hedge_exchange', type: 'text' })
  hedgeExchange: string;

  @Column({ name: 'hedge_wallet', type: 'text' })
  hedgeWallet: string;

  @Column({ name: 'cap_group', type: 'text' })
  capGroup: string;

  @Column({ name: 'target_spread', type: 'numeric' })
  targetSpread: string;

  @Column({ name: 'spread_condition', type: 'text' })
  spreadCondition: string;

  @Column({ name: 'spread_type', type: 'text' })
  spreadType: string;

  @Column({ name: 'target_size', type: 'numeric' })
  targetSize: string;

  @Column({ name: 'size_type', type: 'text' })
  sizeType: string;

  @Column({ name: 'filled_size', type: 'numeric', default: '0' })
  filledSize: string;

  @Column({ name: 'execution_type', type: 'text' })
  executionType: string;

  @Column({ name: 'max_slippage', type: 'numeric' })
  maxSlippage: string;

  @Column({ type: 'text' })
  status: string;

  @Column({ name: 'rate_budget', type: 'integer' })
  rateBudget: number;

  @Column({ name: 'hedge_rate_budget', type: 'integer', nullable: true })
  hedgeRateBudget: number | null;

  @Column({ name: 'quote_mode', type: 'text', nullable: true })
  quoteMode: string | null;

  @Column({ name: 'worst_spread', type: 'numeric', nullable: true })
  worstSpread: string | null;

  @Column({ name: 'fast_move_guard', type: 'text', nullable: true })
  fastMoveGuard: string | null;

  @Column({ name: 'fast_move_guard_bps', type: 'numeric', nullable: true })
  fastMoveGuardBps: string | null;

  @Column({ name: 'fast_move_window_ms', type: 'integer', nullable: true })
  fastMoveWindowMs: number | null;

  @Column({ name: 'fast_move_settle_ms', type: 'integer', nullable: true })
  fastMoveSettleMs: number | null;

  @Column({ name: 'fast_move_guard_stats', type: 'jsonb', nullable: true })
  fastMoveGuardStats: Record<string, unknown> | null;

  @Column({ name: 'failure_reason', type: 'text', default: '' })
  failureReason: string;

  /** Maker fills the trade could not hedge (below the hedge venue's lot or minimums), base units. */
  @Column({ name: 'residual_unhedged', type: 'numeric', default: '0' })
  residualUnhedged: string;

  /** Of residual_unhedged, what the reduce-only unwind on the maker venue took back. */
  @Column({ name: 'residual_unwound', type: 'numeric', default: '0' })
  residualUnwound: string;

  @Column({ name: 'idempotency_key', type: 'text' })
  idempotencyKey: string;

  /** The latest amendment not yet applied by the worker (stored before the PATCH answers). */
  @Column({ type: 'jsonb', nullable: true })
  amendment: Record<string, unknown> | null;

  @Column({ name: 'amendment_version', type: 'integer', default: 0 })
  amendmentVersion: number;

  @Column({ name: 'cancel_requested_at', type: 'timestamptz', nullable: true })
  cancelRequestedAt: Date | null;

  /** Worker id holding the lease; the lease is live while lease_expires_at is in the future. */
  @Column({ name: 'lease_owner', type: 'text', nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_expires_at', type: 'timestamptz', nullable: true })
  leaseExpiresAt: Date | null;

  /** Fencing token: bumped on every takeover, checked on every write by the lease holder. */
  @Column({ name: 'lease_epoch', type: 'bigint', default: '0' })
  leaseEpoch: string;

  /** Highest execution-log sequence written; the next entry takes last_sequence + 1. */
  @Column({ name: 'last_sequence', type: 'integer', default: 0 })
  lastSequence: number;

  /** Id of the last execution-log append committed: a retried append finds it and is a no-op. */
  @Column({ name: 'last_append_id', type: 'uuid', nullable: true })
  lastAppendId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
