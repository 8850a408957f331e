import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { VenueRegistry } from '@sts/domain';
import { CredentialsSettings, loadConfig, loadVenueRegistry } from '@sts/platform';
import { LEASE_QUOTE } from '../trade-runner/lease-trust';
import { WorkerSettings } from './worker.settings';

export interface WorkerConfig {
  settings: WorkerSettings;
  venues: VenueRegistry;
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
  return {
    settings,
    venues: loadVenueRegistry(env),
    workerId: settings.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    leaseRenewMs,
  };
}
