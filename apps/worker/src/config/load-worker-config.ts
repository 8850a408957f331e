import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { EgressPlan, VenueRegistry } from '@sts/domain';
import {
  checkEgressBinds,
  CredentialsSettings,
  loadConfig,
  loadEgressPlan,
  loadVenueRegistry,
} from '@sts/platform';
import { LEASE_QUOTE } from '../trade-runner/lease-trust';
import { WorkerSettings } from './worker.settings';

export interface WorkerConfig {
  settings: WorkerSettings;
  venues: VenueRegistry;
  /** Which egress address each venue account's requests leave from (`EGRESS_PLAN`). */
  egressPlan: EgressPlan;
  /** WORKER_ID, or hostname-pid-random. */
  workerId: string;
  leaseRenewMs: number;
}

export function loadWorkerConfig(
  env: Record<string, string | undefined> = process.env,
): WorkerConfig {
  const settings = loadConfig(WorkerSettings, env);
  settings.credentials = loadConfig(CredentialsSettings, env);
  const leaseRenewMs = settings.leaseRenewMs ?? Math.max(100, Math.floor(settings.leaseTtlMs / 3));
  if (leaseRenewMs >= settings.leaseTtlMs * LEASE_QUOTE) {
    // A trade stops quoting once its lease went that long unrenewed: it would every period.
    throw new Error(
      `WORKER_LEASE_RENEW_MS (${leaseRenewMs}) must be under ${LEASE_QUOTE * 100} % of WORKER_LEASE_TTL_MS (${settings.leaseTtlMs})`,
    );
  }
  const egressPlan = loadEgressPlan(env);
  // Hedges leave from these addresses: a wrong one must stop boot, not fail a hedge.
  checkEgressBinds(egressPlan);
  return {
    settings,
    venues: loadVenueRegistry(env),
    egressPlan,
    workerId: settings.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    leaseRenewMs,
  };
}
