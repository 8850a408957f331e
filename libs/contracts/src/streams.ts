/**
 * JetStream streams, named from the deployment's NATS prefix. Everything a
 * restart must not lose travels on a stream; everything else is core NATS.
 */
export interface StreamDefinition {
  name: string;
  subjects: string[];
  retention: 'workqueue' | 'limits';
  maxAgeMs: number;
  /** Window in which JetStream drops a message whose Nats-Msg-Id it has seen. */
  duplicateWindowMs: number;
}

const upper = (prefix: string): string => prefix.toUpperCase();

/** Trade commands (start): a work queue every worker pulls from; each command goes to one worker. */
export const tradeCommandsStream = (prefix: string): StreamDefinition => ({
  name: `${upper(prefix)}_TRADE_COMMANDS`,
  subjects: [`${prefix}.trades.cmd.>`],
  retention: 'workqueue',
  maxAgeMs: 7 * 24 * 3600_000,
  duplicateWindowMs: 10 * 60_000,
});

/** Lifecycle and maintenance events: kept a day so a restarted notifier can catch up. */
export const eventsStream = (prefix: string): StreamDefinition => ({
  name: `${upper(prefix)}_EVENTS`,
  subjects: [`${prefix}.events.>`],
  retention: 'limits',
  maxAgeMs: 24 * 3600_000,
  duplicateWindowMs: 2 * 60_000,
});

export const allStreams = (prefix: string): StreamDefinition[] => [
  tradeCommandsStream(prefix),
  eventsStream(prefix),
];
