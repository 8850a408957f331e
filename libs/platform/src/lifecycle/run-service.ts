import { loadDotEnv } from '../config/dotenv';

export interface RunningService {
  /** Stops taking work, finishes what is in flight, closes connections. */
  close(): Promise<void>;
}

/**
 * A service process's main: reads `.env`, starts the service, and on SIGTERM
 * or SIGINT closes it gracefully (a worker hands its trades over) before
 * exiting. A failure to start exits 1 with the reason on stderr.
 */
export function runService(name: string, start: () => Promise<RunningService>): void {
  loadDotEnv();
  start().then(
    (service) => {
      let stopping = false;
      const stop = (signal: NodeJS.Signals): void => {
        if (stopping) {
          return;
        }
        stopping = true;
        service.close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(`${name} did not stop cleanly after ${signal}:`, error);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    },
    (error: unknown) => {
      console.error(`${name} failed to start:`, error);
      process.exit(1);
    },
  );
}
