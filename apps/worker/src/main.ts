import { loadDotEnv } from '@sts/platform';
import { startWorker } from './bootstrap';

async function main(): Promise<void> {
  loadDotEnv();
  const worker = await startWorker();
  const stop = (): void => {
    worker.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
