import { StsApiError } from '@sts/sdk';

/** Refusals whose code names the field at fault (docs/api.md, API notes). */
const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  same_exchange: 'short_exchange',
  market_not_tradeable: 'market',
  unknown_exchange: 'long_exchange',
};

export interface FieldErrors {
  /** Messages by the request field they concern. */
  fields: Record<string, string>;
  /** Messages that concern the request as a whole (maintenance, caps, budgets). */
  general: string[];
}

/**
 * Places an API refusal next to the fields it names. A 400 `invalid_request`
 * lists its complaints separated by "; ", each starting with (or naming) the
 * field, e.g. "target_size must be a positive decimal; max_slippage must be a
 * non-negative decimal".
 */
export function fieldErrorsOf(error: unknown, fields: readonly string[]): FieldErrors {
  const result: FieldErrors = { fields: {}, general: [] };
  if (!(error instanceof StsApiError)) {
    result.general.push(error instanceof Error ? error.message : String(error));
    return result;
  }
  const said = error.body.error;
  const byCode = FIELD_OF_CODE[error.code];
  if (byCode && fields.includes(byCode)) {
    result.fields[byCode] = said;
    return result;
  }
  if (error.code !== 'invalid_request') {
    result.general.push(error.reason ? `${said} (${error.reason})` : said);
    return result;
  }
  for (const complaint of said.split('; ')) {
    const field = firstFieldNamed(complaint, fields);
    if (field === undefined) {
      result.general.push(complaint);
    } else {
      result.fields[field] = result.fields[field]
        ? `${result.fields[field]}; ${complaint}`
        : complaint;
    }
  }
  return result;
}

/** The field whose name appears first in the text as a whole word (the longest at a tie). */
function firstFieldNamed(text: string, fields: readonly string[]): string | undefined {
  let best: { field: string; at: number } | undefined;
  for (const field of fields) {
    const match = new RegExp(`(^|[^a-z_])${field}($|[^a-z_])`).exec(text);
    if (!match) {
      continue;
    }
    const at = match.index + match[1].length;
    if (!best || at < best.at || (at === best.at && field.length > best.field.length)) {
      best = { field, at };
    }
  }
  return best?.field;
}
