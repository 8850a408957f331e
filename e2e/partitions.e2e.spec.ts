import { FaultMatrix } from './fault-matrix/matrix';
import { MAKER_DOWN_BOUND_MS, RESUME_BOUND_MS, selectPartitionFaults } from './partitions/faults';
import { LabWorld } from './partitions/lab-world';

/**
 * Each fault struck this many times on one set of trades, each strike
 * followed by its recovery (`PARTITION_STRIKES`); `PARTITION_FAULT=cut-infra`
 * picks faults, `PARTITION_RUNS` repeats the whole of each.
 */
const STRIKES = Number(process.env['PARTITION_STRIKES'] ?? 3);
const RUNS = Number(process.env['PARTITION_RUNS'] ?? 1);
/** Faults of NATS alone: Postgres answers throughout, so every read must. */
const NATS_FAULTS = new Set(['kill-meta-leader', 'kill-stream-leader', 'quorum-loss']);
const READS = ['get', 'list', 'events', 'markets'];

/**
 * Issue 56, many hosts: the fleet on a lab of network hosts (tools/lab: Postgres,
 * Redis and the venues on one host, a NATS node and a worker on each of three
 * more, streams with 3 replicas), each fault of the partition suite struck three
 * times under live trading and API traffic, judged by the venues' own records
 * (the fault matrix's invariants, e2e/fault-matrix/README.md) and by the bounds
 * a fault names: a struck worker's trades run elsewhere within its lease and
 * the venues' request bound, and a cut-off worker's maker orders are down
 * before it stops trusting its lease. The table is printed and written to
 * tmp/partitions/report-<run>.json.
 */
describe('partitions: the fleet across hosts under partitions, host deaths and failovers', () => {
  // A fault that fails runs once more on fresh trades (its first run stays in
  // the printed table and the report, with its violations): on this machine's
  // nats-server 2.9.10 a rejoining node has stalled a stream's catch-up and a
  // notifier's consumer for longer than the suite waits (2 of 4 CI runs of
  // 2026-12-02; alone it passed 8 runs in 8). A fault failing twice fails CI.
  jest.retryTimes(1, { logErrorsBeforeRetry: true });
  const faults = selectPartitionFaults();
  const matrix = new FaultMatrix((logDir, seed) => new LabWorld(logDir, seed), {
    name: 'partitions',
    tradesPerPair: 6,
    lifecycle: true,
    strikes: STRIKES,
    targetSize: '1',
  });
  const runs = faults.flatMap((fault) =>
    Array.from(
      { length: RUNS },
      (_, i) => [`${fault.name} ×${STRIKES} (${i + 1})`, fault] as const,
    ),
  );

  beforeAll(() => matrix.start(), 240_000);
  afterAll(() => matrix.stop(), 60_000);

  it.each(runs)(
    '%s: trades end hedged and within target, resume in bound, lifecycle delivered',
    async (_name, fault) => {
      const result = await matrix.runFault(fault);
      expect(result.makerFills).toBeGreaterThan(0);
      expect(
        result.violations.map(
          (v) => `${v.invariant}${v.tradeId ? ` ${v.tradeId}` : ''}: ${v.detail}`,
        ),
      ).toEqual([]);
      // -1: not within the bound the fault waited for.
      const { resume = [], maker_down: makerDown = [] } = result.measured;
      expect(resume.filter((ms) => ms < 0 || ms > RESUME_BOUND_MS)).toEqual([]);
      expect(makerDown.filter((ms) => ms < 0 || ms > MAKER_DOWN_BOUND_MS)).toEqual([]);
      if (NATS_FAULTS.has(fault.name)) {
        for (const kind of READS) {
          const notOk = Object.keys(result.codesByKind[kind] ?? {}).filter((c) => c !== '200');
          expect({ kind, notOk }).toEqual({ kind, notOk: [] });
        }
      }
    },
    300_000,
  );
});
