import { selectFaults } from './fault-matrix/faults';
import { LocalWorld } from './fault-matrix/local-world';
import { FaultMatrix } from './fault-matrix/matrix';

/**
 * Issue 15, the fault matrix: with live trades filling on paper venues, each
 * fault in turn (private Postgres, NATS and Redis restarted, a worker and the
 * budget service killed, venues frozen, halted, cut off and slowed), API
 * traffic throughout, and the outcome judged by the venues' own records.
 * `FAULT=postgres npx jest e2e/fault-matrix` runs one fault alone. The table
 * is printed and written to tmp/fault-matrix/report-<run>.json.
 */
describe('fault matrix', () => {
  const faults = selectFaults();
  const matrix = new FaultMatrix((logDir, seed) => new LocalWorld(logDir, seed), {
    lifecycle: true,
  });

  beforeAll(() => matrix.start(), 90_000);
  afterAll(() => matrix.stop(), 60_000);

  it.each(faults.map((fault) => [fault.name, fault] as const))(
    '%s: trades end hedged and within target, logs gapless, positions flat, API answers deserved',
    async (_name, fault) => {
      const result = await matrix.runFault(fault);
      // The fault really met live trading and live traffic (else nothing was tested).
      expect(result.makerFills).toBeGreaterThan(0);
      expect(result.apiCalls).toBeGreaterThan(0);
      expect(
        result.violations.map(
          (v) => `${v.invariant}${v.tradeId ? ` ${v.tradeId}` : ''}: ${v.detail}`,
        ),
      ).toEqual([]);
    },
    150_000,
  );
});
