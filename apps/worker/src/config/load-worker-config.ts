import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { VenueRegistry } from '@sts/domain';
import { CredentialsSettings, loadConfig, loadVenueRegistry } from '@sts/platform';
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
  return {
    settings,
    venues: loadVenueRegistry(env),
    workerId: settings.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    leaseRenewMs: settings.leaseRenewMs ?? Math.max(100, Math.floor(settings.leaseTtlMs / 3)),
  };
}
