import { existsSync } from 'node:fs';

/**
 * Loads `.env` from the working directory when present (`npm start` writes one
 * with development secrets). Variables already set in the environment win.
 */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) {
    process.loadEnvFile(path);
  }
}
