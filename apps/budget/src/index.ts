// Entry point for other apps' specs and benches (the fleet runs main.ts).
export { startBudgetService, type BudgetService } from './bootstrap';
export { loadBudgetSettings } from './config/budget.settings';
