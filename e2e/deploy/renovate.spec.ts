import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * renovate.json proposes updates the way the project keeps its dependencies:
 * exact pins in the application, weekly grouped pull requests, money-path
 * libraries never merged without review. Renovate's own validator needs the
 * renovate package (not installed); these are the rules we rely on.
 */
const ROOT = resolve(__dirname, '../..');
const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

interface Rule {
  matchPackageNames?: string[];
  matchDepTypes?: string[];
  groupName?: string;
  labels?: string[];
  automerge?: boolean;
  enabled?: boolean;
}

describe('renovate.json', () => {
  const config = read('renovate.json') as {
    schedule: string[];
    rangeStrategy: string;
    packageRules: Rule[];
  };
  const pkg = read('package.json');
  const dependencies: string[] = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
  /** Renovate's name patterns as we use them: exact names, `scope/**` globs, `*`, `!name`. */
  const matches = (pattern: string, name: string) =>
    pattern === '*' ||
    (pattern.endsWith('/**') ? name.startsWith(pattern.slice(0, -2)) : pattern === name);

  it('keeps the exact pins it finds and proposes on a schedule', () => {
    expect(config.rangeStrategy).toBe('pin');
    expect(config.schedule.length).toBeGreaterThan(0);
    for (const [name, version] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
      expect([name, version]).toEqual([name, expect.stringMatching(/^\d+\.\d+\.\d+(-[\w.]+)?$/)]);
    }
  });

  it('groups only packages the project uses', () => {
    const groups = config.packageRules.filter((rule) => rule.groupName && rule.matchPackageNames);
    expect(groups.length).toBeGreaterThanOrEqual(5);
    for (const rule of groups) {
      for (const pattern of rule.matchPackageNames!) {
        const used = dependencies.some((name) => matches(pattern, name));
        // `node` is the runtime (image, .nvmrc), `nats`' successors come in later.
        const known = ['node', 'fastify', '@nats-io/**'].includes(pattern);
        expect([rule.groupName, pattern, used || known]).toEqual([rule.groupName, pattern, true]);
      }
    }
  });

  it('never automerges a money-path library: its rule comes after every automerge rule', () => {
    const moneyPath = config.packageRules.findIndex((rule) => rule.labels?.includes('money-path'));
    expect(config.packageRules[moneyPath]?.automerge).toBe(false);
    expect(config.packageRules[moneyPath]?.matchPackageNames).toEqual(
      expect.arrayContaining(['ccxt', 'big.js']),
    );
    const automerging = config.packageRules.flatMap((rule, index) =>
      rule.automerge ? [index] : [],
    );
    expect(automerging.every((index) => index < moneyPath)).toBe(true);
  });

  it('leaves the supported Node versions (engines) alone', () => {
    expect(config.packageRules).toContainEqual(
      expect.objectContaining({ matchDepTypes: ['engines'], enabled: false }),
    );
  });
});
