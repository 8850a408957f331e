export type DependencyState = 'up' | 'down';

export interface EdgeDependencies {
  checks: { postgres: DependencyState; nats: DependencyState };
  /** The names of those down, for `reason` and the error text. */
  down: string[];
}

const CHECK_TIMEOUT_MS = 1_500;

const answersWithin = (work: Promise<unknown>, ms: number): Promise<DependencyState> =>
  Promise.race([
    work.then(
      () => 'up' as const,
      () => 'down' as const,
    ),
    new Promise<'down'>((resolve) => setTimeout(() => resolve('down'), ms).unref()),
  ]);

/**
 * Readiness of a service at the edge (gateway, notifier): Postgres answers a
 * query within 1.5 s, and NATS is connected (read from the connection's
 * status: no round trip that would wait behind a dead link).
 */
export async function checkEdgeDependencies(
  db: { query(sql: string): Promise<unknown> },
  nats: { readonly connected: boolean },
): Promise<EdgeDependencies> {
  const checks = {
    postgres: await answersWithin(db.query('SELECT 1'), CHECK_TIMEOUT_MS),
    nats: nats.connected ? ('up' as const) : ('down' as const),
  };
  const down = Object.entries(checks)
    .filter(([, state]) => state === 'down')
    .map(([name]) => name);
  return { checks, down };
}
