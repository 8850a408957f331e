import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const flatten = (errors: ValidationError[], parent = ''): string[] =>
  errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) => `${path}: ${text}`);
    return [...own, ...flatten(error.children ?? [], path)];
  });

/**
 * Reads the environment into a typed, validated settings object once, at boot.
 * Unknown variables are ignored; a bad value stops the process with every
 * problem listed, never a half-configured service.
 */
export function loadConfig<T extends object>(
  schema: new () => T,
  env: Record<string, string | undefined> = process.env,
): T {
  const defined = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const settings = plainToInstance(schema, defined, {
    enableImplicitConversion: true,
    exposeDefaultValues: true,
    excludeExtraneousValues: true,
  });
  const errors = validateSync(settings, { whitelist: true, forbidUnknownValues: true });
  if (errors.length > 0) {
    throw new ConfigError(flatten(errors));
  }
  return settings;
}
