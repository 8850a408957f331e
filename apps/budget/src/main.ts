import { createLogger, loadVenueRegistry, runService, startOpsServer } from '@sts/platform';
import { startBudgetService, type BudgetService } from './bootstrap';
import { BudgetMetrics } from './budget.metrics';
import { loadBudgetSettings } from './config/budget.settings';

runService('budget', async () => {
  const settings = loadBudgetSettings();
  const logger = createLogger('budget', settings.logLevel, settings.logFile);
  const metrics = new BudgetMetrics();
  let service: BudgetService | undefined;
  const ops = await startOpsServer({
    host: settings.metricsHost,
    port: settings.metricsPort,
    registry: metrics.registry,
    readiness: () => service?.readiness() ?? { ready: false, checks: { budget: 'starting' } },
  });
  try {
    service = await startBudgetService(settings, { venues: loadVenueRegistry(), logger, metrics });
  } catch (error) {
    await ops.close();
    throw error;
  }
  const running = service;
  return {
    close: async () => {
      await running.close();
      await ops.close();
    },
  };
});
