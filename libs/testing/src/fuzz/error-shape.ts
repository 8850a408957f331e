/**
 * What a refusal may look like, checked the same way for every endpoint and
 * message of the fuzz specs: `{error, code}` (+ `reason`, + the documented
 * details of a few codes), a snake_case code, and nothing of the inside.
 */

/** Detail fields some codes carry (maker_cap_exceeded, rate_budget_exhausted), documented in the README. */
const DETAIL_FIELDS = new Set([
  'exchange',
  'cap',
  'active',
  'leg',
  'limit_per_s',
  'holders',
  'min_trade_budget',
  'min_pace_per_min',
]);

/** Traces of the machinery: stack frames, SQL, driver and framework names, source paths. */
export const INTERNALS =
  /\bat [\w.<>$]+ \(|node_modules|\.[jt]s:\d+|QueryFailedError|TypeORM|typeorm|\bpg\b|SELECT |INSERT INTO|UPDATE trades|DELETE FROM|\bFastify|FST_ERR|statusCode|"stack"|Nest[A-Z]\w+|TypeError|RangeError|SyntaxError|ReferenceError|Cannot read prop/;

/** The internals pattern's match as a pattern of its own (`pg` as a word, not inside `pgx`). */
const INTERNALS_G = (match: string): RegExp =>
  new RegExp(`(^|\\W)${match.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\W|$)`);

export const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Null when `body` is a well-formed error of ours; else what is wrong with it. */
export function errorBodyProblem(
  body: unknown,
  text: string,
  extraFields: readonly string[] = [],
  /** What the client sent: a trace of it echoed back (a field it named `pg`) is no leak. */
  sent = '',
): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return `not a JSON object: ${text.slice(0, 200)}`;
  }
  const record = body as Record<string, unknown>;
  if (typeof record['error'] !== 'string' || record['error'].length === 0) {
    return 'no error text';
  }
  if (typeof record['code'] !== 'string' || !SNAKE_CASE.test(record['code'])) {
    return `code is not snake_case: ${JSON.stringify(record['code'])}`;
  }
  if (record['reason'] !== undefined && typeof record['reason'] !== 'string') {
    return 'reason is not a string';
  }
  const unexpected = Object.keys(record).filter(
    (key) =>
      !['error', 'code', 'reason'].includes(key) &&
      !DETAIL_FIELDS.has(key) &&
      !extraFields.includes(key),
  );
  if (unexpected.length > 0) {
    return `unexpected fields ${unexpected.join(', ')}`;
  }
  const leak = INTERNALS.exec(text);
  if (leak && !INTERNALS_G(leak[0]).test(sent)) {
    return `internals in the body: ${leak[0]}`;
  }
  return null;
}
