import { escapeLiteral } from 'pg';

/** A value a statement takes as a literal (the simple protocol carries no parameters). */
export type SqlValue = string | number | null;

/** `value` as a SQL literal: strings through pg's escapeLiteral, numbers only when finite. */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) {
    return 'NULL';
  }
  if (typeof value === 'string') {
    return escapeLiteral(value);
  }
  // A number goes in as its digits: only a finite one is a SQL number.
  if (!Number.isFinite(value)) {
    throw new RangeError(`not a SQL number: ${value}`);
  }
  return String(value);
}
