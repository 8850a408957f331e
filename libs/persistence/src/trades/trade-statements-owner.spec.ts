import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every statement on `trades` goes through TradeRepository (issue 38): a
 * statement written anywhere else in production code fails this spec. SQL in
 * this codebase is upper case, so prose about trades does not match.
 */
const ROOT = join(__dirname, '../../../..');
const STATEMENT = /\b(FROM|UPDATE|INTO|JOIN)\s+trades\b/;
/** The repository's lib, and the test support (its fuzz checks look for leaked SQL text). */
const OWN_RULES = ['libs/persistence', 'libs/testing'];
const ENTITY_USE = /(getRepository|Repository)\s*[(<]\s*TradeEntity\b/;

/** Production sources: apps' and libs' src, without specs, test support (libs/testing too) or migrations. */
function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return ['node_modules', 'test', 'testing', 'migrations'].includes(entry.name)
        ? []
        : productionFiles(path);
    }
    return /\.tsx?$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function sourceRoots(): string[] {
  return ['apps', 'libs'].flatMap((top) =>
    readdirSync(join(ROOT, top), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !OWN_RULES.includes(`${top}/${entry.name}`))
      .map((entry) => join(ROOT, top, entry.name, 'src')),
  );
}

describe('statements on trades', () => {
  it('are written only in libs/persistence (TradeRepository)', () => {
    const offenders = sourceRoots()
      .flatMap((root) => {
        try {
          return productionFiles(root);
        } catch {
          return []; // a project without src
        }
      })
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        return STATEMENT.test(text) || ENTITY_USE.test(text);
      })
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });

  it('are recognised by the check', () => {
    expect(STATEMENT.test('SELECT id FROM trades WHERE')).toBe(true);
    expect(STATEMENT.test('UPDATE trades t SET')).toBe(true);
    expect(STATEMENT.test('INSERT INTO trades (id)')).toBe(true);
    expect(ENTITY_USE.test('db.getRepository(TradeEntity).count()')).toBe(true);
    expect(STATEMENT.test('reads trades from Postgres')).toBe(false);
  });
});
