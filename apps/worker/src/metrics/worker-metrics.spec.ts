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

  it('counts the tokens of every live request by kind, and apart those no trade paid for', async () => {
    const metrics = new WorkerMetrics();
    metrics.venueRequestSent('hyperliquid', { kind: 'markets', tokens: 20, metered: false });
    metrics.venueRequestSent('hyperliquid', { kind: 'place', tokens: 1, metered: true });
    metrics.venueRequestSent('hyperliquid', { kind: 'place', tokens: 1, metered: true });
    const page = await metrics.registry.metrics();
    const tokens = (kind: string, metered: string): RegExp =>
      new RegExp(
        `^sts_worker_venue_request_tokens_total\\{(?=[^}]*exchange="hyperliquid")(?=[^}]*kind="${kind}")(?=[^}]*metered="${metered}")[^}]*\\} (\\d+)$`,
        'm',
      );
    expect(page.match(tokens('markets', 'false'))?.[1]).toBe('20');
    expect(page.match(tokens('place', 'true'))?.[1]).toBe('2');
    expect(page).not.toMatch(tokens('place', 'false'));
  });
});
