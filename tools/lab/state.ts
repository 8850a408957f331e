import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Fault } from './faults';
import type { HostName, LabLayout } from './layout';
import type { ProcessEntry, ServiceName, UpOptions } from './services';

/** state.json: what a later command (down, status, a fault) needs to find the lab. */
export interface LabState {
  name: string;
  net: number;
  stateDir: string;
  /** The private build every service runs from (removed by down). */
  distDir: string;
  /** CREDENTIALS_KEK of every service (base64 of 32 random bytes, made at up). */
  kek: string;
  /** WEBHOOK_SECRETS_KEK of the gateways and notifiers (made at up, like `kek`). */
  webhookKek: string;
  /** libfaketime preloaded into the Node services of h1..h3, when installed. */
  faketimeLib?: string;
  startedAt: string;
  phase: 'starting' | 'up' | 'failed';
  options: UpOptions;
  /** By `<host>/<service>`. */
  processes: Record<string, ProcessEntry>;
  faults: Fault[];
  delayerPid?: number;
}

export type { ProcessEntry };

export const processKey = (host: HostName, service: ServiceName): string => `${host}/${service}`;

export function readState(layout: LabLayout): LabState | undefined {
  if (!existsSync(layout.stateFile)) {
    return undefined;
  }
  return JSON.parse(readFileSync(layout.stateFile, 'utf8')) as LabState;
}

/** Written whole and renamed into place (a reader never sees half a file); private to root. */
export function writeState(layout: LabLayout, state: LabState): void {
  mkdirSync(layout.stateDir, { recursive: true });
  const staging = `${layout.stateFile}.${process.pid}`;
  writeFileSync(staging, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(staging, layout.stateFile);
}
