import { VENUE_IDS } from '@sts/domain';
import { WorkerMetrics } from './worker-metrics';

/** Counted from the page Prometheus scrapes: what a fresh worker exposes before anything happened. */
describe('worker metrics', () => {
  it('exposes every venue’s hedge failures at 0 from the start, so the first one is an increase', async () => {
    const metrics = new WorkerMetrics();
    const page = await metrics.registry.metrics();
    for (const exchange of VENUE_IDS) {
      expect(page).toMatch(
        new RegExp(
          `^sts_worker_hedge_failures_total\\{[^}]*exchange="${exchange}"[^}]*\\} 0$`,
          'm',
        ),
      );
    }
    metrics.recordHedgeEnded('aster', 'timeout', 3_000);
    expect(await metrics.registry.metrics()).toMatch(
      /^sts_worker_hedge_failures_total\{[^}]*exchange="aster"[^}]*\} 1$/m,
    );
  });
});
