import { runService } from '@sts/platform';
import { createGatewayApp } from './bootstrap';
import { loadGatewayConfig } from './config/load-gateway-settings';

runService('gateway', async () => {
  const config = loadGatewayConfig();
  const app = await createGatewayApp(config);
  await app.listen(config.settings.port, config.settings.host);
  return { close: () => app.close() };
});
