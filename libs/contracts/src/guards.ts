import { MessageValidationError } from './envelope';

/** Small field readers for payload validators; each throws MessageValidationError. */
export function objectOf(type: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MessageValidationError(type, 'payload is not an object');
  }
  return value as Record<string, unknown>;
}

export function stringField(type: string, record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== 'string') {
    throw new MessageValidationError(type, `${field} must be a string`);
  }
  return value;
}

export function optionalStringField(
  type: string,
  record: Record<string, unknown>,
  field: string,
): string | undefined {
  return record[field] === undefined || record[field] === null
    ? undefined
    : stringField(type, record, field);
}

export function booleanField(
  type: string,
  record: Record<string, unknown>,
  field: string,
): boolean {
  const value = record[field];
  if (typeof value !== 'boolean') {
    throw new MessageValidationError(type, `${field} must be a boolean`);
  }
  return value;
}

export function integerField(type: string, record: Record<string, unknown>, field: string): number {
  const value = record[field];
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new MessageValidationError(type, `${field} must be an integer`);
  }
  return value;
}

export function oneOf<T extends string>(
  type: string,
  record: Record<string, unknown>,
  field: string,
  allowed: readonly T[],
): T {
  const value = stringField(type, record, field);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new MessageValidationError(type, `${field} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}
