import { createLogger, loadVenueRegistry, runService } from '@sts/platform';
import { startBudgetService } from './bootstrap';
import { loadBudgetSettings } from './config/budget.settings';

runService('budget', () => {
  const settings = loadBudgetSettings();
  const logger = createLogger('budget', settings.logLevel, settings.logFile);
  return startBudgetService(settings, { venues: loadVenueRegistry(), logger });
});
