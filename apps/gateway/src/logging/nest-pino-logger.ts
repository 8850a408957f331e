import type { LoggerService, LogLevel as NestLogLevel } from '@nestjs/common';
import type { Logger } from '@sts/platform';

type PinoLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

const LEVELS: Record<NestLogLevel, PinoLevel> = {
  verbose: 'trace',
  debug: 'debug',
  log: 'info',
  warn: 'warn',
  error: 'error',
  fatal: 'fatal',
};

/**
 * Nest's logger, written by the gateway's pino logger as JSON lines. A
 * `Logger` of Nest passes its context last: it becomes the line's `context`.
 * The first argument is the line's object when it is one (`{ err }, 'text'`),
 * its `err` when it is an Error, its text otherwise. Nothing is bound per
 * request: a request's own line is the request log's (request-log.ts).
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('log', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('verbose', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: NestLogLevel, message: unknown, params: unknown[]): void {
    const pinoLevel = LEVELS[level];
    if (!this.logger.isLevelEnabled(pinoLevel)) {
      return;
    }
    const context = params.length > 0 ? params[params.length - 1] : undefined;
    const rest = params.slice(0, -1);
    const fields: Record<string, unknown> = context === undefined ? {} : { context };
    if (message instanceof Error) {
      this.logger[pinoLevel]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[pinoLevel]({ ...fields, ...message }, ...(rest as [string?]));
    } else if (level === 'error' && typeof rest[0] === 'string' && rest.length === 1) {
      // Nest's own (message, stack, context): the stack goes with the text.
      this.logger.error({ ...fields, stack: rest[0] }, String(message));
    } else {
      this.logger[pinoLevel](fields, String(message), ...rest);
    }
  }
}
