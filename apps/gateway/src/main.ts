import { loadDotEnv } from '@sts/platform';
import { createGatewayApp } from './bootstrap';
import { loadGatewayConfig } from './config/load-gateway-settings';

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadGatewayConfig();
  const app = await createGatewayApp(config);
  await app.listen(config.settings.port, config.settings.host);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
