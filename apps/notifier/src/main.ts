import { runService } from '@sts/platform';
import { startNotifier } from './bootstrap';

runService('notifier', () => startNotifier());
