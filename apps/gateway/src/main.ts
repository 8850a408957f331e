import { DataSource } from 'typeorm';
import { readStoreFigures } from '@sts/persistence';
import { checkEdgeDependencies, NatsLink, runService, startOpsServer } from '@sts/platform';
import { createGatewayApp } from './bootstrap';
import { loadGatewayConfig } from './config/load-gateway-settings';
import { GatewayMetrics } from './metrics/gateway-metrics';

runService('gateway', async () => {
  const config = loadGatewayConfig();
  const metrics = new GatewayMetrics();
  const app = await createGatewayApp(config, metrics);
  await app.listen(config.settings.port, config.settings.host);
  const db = app.get(DataSource);
  const nats = app.get(NatsLink);
  metrics.readStoreFiguresWith(() => readStoreFigures(db));
  const ops = await startOpsServer({
    host: config.settings.metricsHost,
    port: config.settings.metricsPort,
    registry: metrics.registry,
    readiness: async () => {
      const { checks, down } = await checkEdgeDependencies(db, nats);
      return { ready: down.length === 0, checks };
    },
  });
  return {
    close: async () => {
      await app.close();
      await ops.close();
    },
  };
});
