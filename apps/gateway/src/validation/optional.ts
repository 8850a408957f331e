import { ValidateIf, type ValidationOptions } from 'class-validator';

/**
 * An optional field: absent (undefined) skips its rules, but an explicit JSON
 * `null` is validated like any other value and so refused. class-validator's
 * IsOptional skips null too, which let `"idempotency_key": null` and a PATCH
 * of nulls through as if they were meaningful.
 */
export const Optional = (options?: ValidationOptions): PropertyDecorator =>
  ValidateIf((_object, value) => value !== undefined, options);
