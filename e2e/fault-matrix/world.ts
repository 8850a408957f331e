import type { SimControl } from '@sts/app-venue-sim';
import type { TestOperator } from '@sts/testing';

/** A service's own JSON log, read for evidence when an invariant is violated. */
export interface ServiceLog {
  id: string;
  service: string;
  logFile: string;
}

/**
 * What the matrix runs its faults against: a fleet with its Postgres, NATS,
 * Redis and venue simulator, on one host (`LocalWorld`) or on a lab of
 * network hosts (`e2e/partitions`).
 */
export interface MatrixWorld {
  readonly databaseUrl: string;
  readonly gatewayUrl: string;
  readonly notifierUrl: string;
  /** Every notifier: a trader's lifecycle is watched on each (one may be struck). */
  readonly notifierUrls: string[];
  readonly simUrl: string;
  readonly sim: SimControl;
  readonly operator: TestOperator;
  logs(): ServiceLog[];
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Readies the world for the next fault (notes what it did); nothing where
   * nothing is needed. `afterFailure`: the fault before failed its checks or
   * threw, and may have left the world broken.
   */
  beforeFault?(note: (text: string) => void, afterFailure: boolean): Promise<void>;
  /** What the world shows of event delivery, for the report of a lifecycle event lost. */
  diagnoseDelivery?(): Promise<string>;
}
