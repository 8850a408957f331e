import { readStoreFigures } from '@sts/persistence';
import { GatewayHarness } from './gateway-harness';

/**
 * The gateway's store gauges as a scrape reads them (main.ts wires the same
 * read): here `sts_kill_switch_on_seconds`, which StsKillSwitchLeftOn
 * watches. 0 while the switch is off whatever its row says; once an operator
 * turns it on, how long ago.
 */
describe('store gauges: how long the kill switch has been on', () => {
  const gateway = new GatewayHarness();

  beforeAll(async () => {
    await gateway.start();
    gateway.metrics.readStoreFiguresWith(() =>
      readStoreFigures({
        query: <T>(sql: string, params?: unknown[]) => gateway.query(sql, params) as Promise<T>,
      }),
    );
  });
  afterAll(() => gateway.stop());

  const scraped = async (): Promise<number> => {
    const metric = await gateway.metrics.registry
      .getSingleMetric('sts_kill_switch_on_seconds')
      ?.get();
    return metric?.values[0]?.value ?? Number.NaN;
  };

  it('is 0 while off, the time since it was turned on while on, and 0 again once off', async () => {
    expect(await scraped()).toBe(0);
    await gateway.ops('kill-switch', 'on', '--reason', 'drill');
    // As if turned on 90 minutes ago.
    await gateway.query(
      `UPDATE system_flags SET updated_at = now() - interval '90 minutes' WHERE name = 'kill_switch'`,
    );
    const on = await scraped();
    expect(on).toBeGreaterThanOrEqual(90 * 60);
    expect(on).toBeLessThan(91 * 60);
    await gateway.ops('kill-switch', 'off');
    expect(await scraped()).toBe(0);
  });
});
