import { runService } from '@sts/platform';
import { startWorker } from './bootstrap';

runService('worker', () => startWorker());
