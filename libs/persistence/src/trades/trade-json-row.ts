import type { EntityMetadata } from 'typeorm';
import type { TradeEntity } from '../entities/trade.entity';

/** Which of a trade's properties a read returns (its budgets as they are now). */
export type TradeFields = ReadonlyArray<keyof TradeEntity>;

/** Column types node-postgres answers as text: a JSON number would lose their digits. */
const TEXT_TYPES = new Set(['numeric', 'decimal', 'bigint', 'int8']);
/** Column types node-postgres answers as Dates: JSON carries them as ISO 8601 text. */
const TIME_TYPES = new Set(['timestamptz', 'timestamp with time zone', 'timestamp']);

/**
 * A read of trades as one `json` column per row, an object keyed by the
 * entity's properties. node-postgres sets up a parser and an empty row for
 * every column of every answer (with thirty columns, about a tenth of the
 * gateway's CPU on a GET), and one column is one set-up; Postgres builds the
 * object and V8's JSON parser reads it. The row is what a select of the
 * columns would give: decimals and bigints as text, times as Dates, json as
 * objects, integers as numbers.
 */
export class TradeJsonRow<T> {
  /** The select expression, `… AS row`, over `trades t` (and its budgets' join). */
  readonly select: string;
  private readonly timeFields: ReadonlyArray<string>;

  constructor(
    metadata: EntityMetadata,
    fields: TradeFields,
    expressions: Partial<Record<keyof TradeEntity, string>>,
  ) {
    const pairs: string[] = [];
    const times: string[] = [];
    for (const field of fields) {
      const column = metadata.findColumnWithPropertyName(field);
      if (!column) {
        throw new Error(`trades has no column for ${field}`);
      }
      const type = String(column.type);
      const value = expressions[field] ?? `t.${column.databaseName}`;
      pairs.push(`'${field}', ${TEXT_TYPES.has(type) ? `(${value})::text` : value}`);
      if (TIME_TYPES.has(type)) {
        times.push(field);
      }
    }
    this.select = `json_build_object(${pairs.join(', ')}) AS row`;
    this.timeFields = times;
  }

  /** One answered row as the entity's properties. */
  decode(answered: { row: Record<string, unknown> }): T {
    const row = answered.row;
    for (const field of this.timeFields) {
      const text = row[field];
      if (typeof text === 'string') {
        row[field] = new Date(text);
      }
    }
    return row as T;
  }
}
