import {
  DEAD_MAN_STATE,
  deadManBucket,
  decodeEnvelope,
  type DeadManState,
  parseDeadManState,
} from '@sts/contracts';
import { connectNats, type NatsConnection } from '@sts/platform';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { OpsContext } from '../ops-context';

/** One row of `ops dead-man list`: an account's switch as one worker holding trades there keeps it. */
export type DeadManRow = Pick<
  DeadManState,
  | 'venue'
  | 'wallet'
  | 'state'
  | 'armed_until'
  | 'last_refresh_at'
  | 'reason'
  | 'worker_id'
  | 'timeout_ms'
  | 'updated_at'
>;

/**
 * Reads the dead-man switches' states from the workers' KV bucket (read
 * only): one row per (venue, wallet, worker) holding trades there, sorted.
 * No bucket yet (no worker ever held a trade) is no row.
 */
export async function listDeadMen(
  context: OpsContext,
  filter: { venue?: string } = {},
): Promise<DeadManRow[]> {
  const nats = await connectNats({
    url: context.settings.natsUrl,
    name: `ops-${context.operatorId}`,
  });
  try {
    const jsm = await jetstreamManager(nats);
    const kv = await openBucket(jsm, nats, context.settings.natsPrefix);
    const rows = kv ? await readRows(jsm, kv, deadManBucket(context.settings.natsPrefix).name) : [];
    return rows
      .filter((row) => !filter.venue || row.venue === filter.venue)
      .sort((a, b) =>
        `${a.venue}\u0000${a.wallet}\u0000${a.worker_id}`.localeCompare(
          `${b.venue}\u0000${b.wallet}\u0000${b.worker_id}`,
        ),
      );
  } finally {
    await nats.close();
  }
}

/** The bucket if it exists: binding never creates it. */
async function openBucket(
  jsm: JetStreamManager,
  nats: NatsConnection,
  prefix: string,
): Promise<KV | undefined> {
  const { name } = deadManBucket(prefix);
  try {
    await jsm.streams.info(`KV_${name}`);
  } catch {
    return undefined;
  }
  return new Kvm(nats).open(name);
}

/**
 * The bucket's keys from its stream's subjects (one request, paged by the
 * client), then each key's last entry. Not kv.keys(): it runs a consumer
 * whose end it infers from pending counts and heartbeats while workers keep
 * writing rows, and a listing hung there once in dead-man-board.int under
 * CI load (not reproduced since); one request has no end to infer.
 */
async function readRows(jsm: JetStreamManager, kv: KV, bucket: string): Promise<DeadManRow[]> {
  const prefix = `$KV.${bucket}.`;
  const info = await jsm.streams.info(`KV_${bucket}`, { subjects_filter: `${prefix}>` });
  const keys = Object.keys(info.state.subjects ?? {}).map((subject) =>
    subject.slice(prefix.length),
  );
  const rows: DeadManRow[] = [];
  for (const key of keys) {
    const entry = await kv.get(key);
    if (entry?.operation === 'PUT') {
      const state = decodeEnvelope(entry.value, DEAD_MAN_STATE, parseDeadManState).payload;
      rows.push(rowOf(state));
    }
  }
  return rows;
}

const rowOf = (state: DeadManState): DeadManRow => ({
  venue: state.venue,
  wallet: state.wallet,
  state: state.state,
  armed_until: state.armed_until,
  last_refresh_at: state.last_refresh_at,
  reason: state.reason,
  worker_id: state.worker_id,
  timeout_ms: state.timeout_ms,
  updated_at: state.updated_at,
});
