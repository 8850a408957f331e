import pino, { type Logger, type LoggerOptions } from 'pino';
import type { LogLevel } from '../config/common.settings';

/**
 * Every path that may carry a secret is censored before a line is written:
 * API keys, JWTs, venue secrets and signatures. Secrets are also never passed
 * to the logger on purpose; this is the second line of defence.
 */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.body.api_key',
  'req.body.api_secret',
  'req.body.signature',
  '*.api_key',
  '*.apiKey',
  '*.api_secret',
  '*.apiSecret',
  '*.secret',
  '*.token',
  '*.password',
  '*.signature',
  '*.passphrase',
];

export function loggerOptions(service: string, level: LogLevel): LoggerOptions {
  return {
    level,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
  };
}

/** stdout, or a file when LOG_FILE is set. Synchronous so the last lines survive a crash. */
export function logDestination(file?: string): pino.DestinationStream {
  return pino.destination({ dest: file ?? 1, sync: true, mkdir: !!file });
}

/** A structured JSON logger for code outside Nest's DI (workers' hot paths, scripts). */
export function createLogger(service: string, level: LogLevel = 'info', file?: string): Logger {
  return pino(loggerOptions(service, level), logDestination(file));
}

export type { Logger };
