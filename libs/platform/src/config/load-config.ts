import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

// class-transformer keeps its metadata store out of its public entry point.
type MetadataStorageModule = typeof import('class-transformer/types/storage');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const storageModule = require('class-transformer/cjs/storage') as MetadataStorageModule;
const { defaultMetadataStorage } = storageModule;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Names the environment variable (its @Expose name) rather than the property. */
const variableOf = (error: ValidationError): string =>
  (error.target &&
    defaultMetadataStorage.findExposeMetadata(error.target.constructor, error.property)?.options
      .name) ||
  error.property;

const flatten = (errors: ValidationError[]): string[] =>
  errors.flatMap((error) => {
    const variable = variableOf(error);
    const value = error.value === undefined ? 'unset' : JSON.stringify(error.value);
    return Object.values(error.constraints ?? {}).map(
      (text) => `${variable} (${value}): ${text.replace(error.property, variable)}`,
    );
  });

/**
 * Reads the environment into a typed, validated settings object once, at boot.
 * Settings properties must carry an explicit type annotation (`port: number = 3000`):
 * the conversion from the environment's strings follows the emitted type metadata.
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
