import { runService, startOpsServer } from '@sts/platform';
import { startWorker, type RunningWorker } from './bootstrap';
import { loadWorkerConfig } from './config/load-worker-config';
import { WorkerMetrics } from './metrics/worker-metrics';

runService('worker', async () => {
  const { settings } = loadWorkerConfig(process.env);
  const metrics = new WorkerMetrics();
  let worker: RunningWorker | undefined;
  // Up before the worker: liveness answers while it connects, readiness says it is starting.
  const ops = await startOpsServer({
    host: settings.metricsHost,
    port: settings.metricsPort,
    registry: metrics.registry,
    readiness: () => worker?.readiness() ?? { ready: false, checks: { worker: 'starting' } },
  });
  try {
    worker = await startWorker(process.env, { metrics, metricsUrl: ops.url });
  } catch (error) {
    await ops.close();
    throw error;
  }
  const running = worker;
  return {
    close: async () => {
      await running.close();
      await ops.close();
    },
  };
});
