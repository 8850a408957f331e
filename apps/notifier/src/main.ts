import { runService, startOpsServer } from '@sts/platform';
import { startNotifier } from './bootstrap';
import { loadNotifierSettings } from './config/load-notifier-settings';

runService('notifier', async () => {
  const settings = loadNotifierSettings(process.env);
  const notifier = await startNotifier();
  const ops = await startOpsServer({
    host: settings.metricsHost,
    port: settings.metricsPort,
    registry: notifier.metrics,
    readiness: () => notifier.readiness(),
  });
  return {
    close: async () => {
      await notifier.close();
      await ops.close();
    },
  };
});
