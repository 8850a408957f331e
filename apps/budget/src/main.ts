import { createLogger, loadVenueRegistry } from '@sts/platform';
import { startBudgetService } from './bootstrap';
import { loadBudgetSettings } from './config/budget.settings';

async function main(): Promise<void> {
  const settings = loadBudgetSettings();
  const logger = createLogger('budget', settings.logLevel, settings.logFile);
  const service = await startBudgetService(settings, { venues: loadVenueRegistry(), logger });
  const stop = (signal: string): void => {
    logger.info({ signal }, 'budget service stopping');
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'budget service did not stop cleanly');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
