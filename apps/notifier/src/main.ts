import { loadDotEnv } from '@sts/platform';
import { startNotifier } from './bootstrap';

async function main(): Promise<void> {
  loadDotEnv();
  const notifier = await startNotifier();
  const stop = (): void => {
    notifier.close().then(
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
