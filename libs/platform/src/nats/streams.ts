import {
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { StreamDefinition } from '@sts/contracts';

const nanos = (ms: number): number => ms * 1_000_000;

const isStreamNotFound = (error: unknown): boolean =>
  error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound;

/** Creates or updates the streams; safe to run from every replica at every boot. */
export async function ensureStreams(
  jsm: JetStreamManager,
  streams: StreamDefinition[],
): Promise<void> {
  for (const stream of streams) {
    const config = {
      name: stream.name,
      subjects: stream.subjects,
      retention:
        stream.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: nanos(stream.maxAgeMs),
      duplicate_window: nanos(stream.duplicateWindowMs),
    };
    try {
      await jsm.streams.info(stream.name);
      await jsm.streams.update(stream.name, config);
    } catch (error) {
      if (!isStreamNotFound(error)) {
        throw error;
      }
      await jsm.streams.add(config);
    }
  }
}
