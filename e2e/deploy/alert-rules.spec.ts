import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';

/**
 * The alert rules (deploy/prometheus/alerts.yml) through Debian's promtool:
 * they parse, their unit tests pass, and the unit tests have teeth: with any
 * one alert made never to fire, or always to fire, the tests fail on that
 * alert (each has a firing and a quiet case).
 */
const DIR = resolve(__dirname, '../../deploy/prometheus');
const RULES = join(DIR, 'alerts.yml');
const TESTS = join(DIR, 'alerts.test.yml');

interface Rule {
  alert: string;
  expr: string;
}
interface RuleFile {
  groups: Array<{ name: string; rules: Rule[] }>;
}

const promtool = (args: string[], cwd: string) =>
  spawnSync('promtool', args, { cwd, encoding: 'utf8', timeout: 60_000 });

describe('alert rules (promtool)', () => {
  const rules = parse(readFileSync(RULES, 'utf8')) as RuleFile;
  const alerts = rules.groups.flatMap((group) => group.rules.map((rule) => rule.alert));

  it('has promtool (Debian package prometheus; .ci/run installs it)', () => {
    expect(execFileSync('promtool', ['--version'], { encoding: 'utf8' })).toContain('promtool');
  });

  it('passes promtool check rules', () => {
    const result = promtool(['check', 'rules', RULES], DIR);
    expect(result.stdout + result.stderr).toContain(`SUCCESS: ${alerts.length} rules found`);
    expect(result.status).toBe(0);
  });

  it('passes promtool test rules', () => {
    const result = promtool(['test', 'rules', TESTS], DIR);
    expect(result.stdout + result.stderr).toContain('SUCCESS');
    expect(result.status).toBe(0);
  });

  it('names every alert the issue asks for', () => {
    expect(alerts.sort()).toEqual(
      [
        'StsDeadManSwitchNotArmed',
        'StsHedgeFailure',
        'StsHedgeLatencyOverBudget',
        'StsLiveTradeWithoutLease',
        'StsOutboxLag',
        'StsServiceDown',
        'StsUnhedgedExposure',
        'StsVenueRateLimited',
      ].sort(),
    );
  });

  describe.each(alerts)('%s', (alert) => {
    const withExpr = (expr: string): string => {
      const dir = mkdtempSync(join(tmpdir(), 'sts-rules-'));
      const mutated: RuleFile = {
        groups: rules.groups.map((group) => ({
          ...group,
          rules: group.rules.map((rule) => (rule.alert === alert ? { ...rule, expr } : rule)),
        })),
      };
      writeFileSync(join(dir, 'alerts.yml'), stringify(mutated));
      copyFileSync(TESTS, join(dir, 'alerts.test.yml'));
      return dir;
    };
    const failsOn = (dir: string): string => {
      try {
        const result = promtool(['test', 'rules', 'alerts.test.yml'], dir);
        expect(result.status).not.toBe(0);
        return result.stdout + result.stderr;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };

    // promtool names the failed case: `alertname: X, time: T,` then what it expected and got.
    const failedCase = (expected: string, got: string): RegExp =>
      new RegExp(`alertname: ${alert}, time: [^\\n]*\\n\\s*exp:${expected}[\\s\\S]*?got:${got}`);

    it('has a case where it fires (a rule that never fires fails the tests)', () => {
      expect(failsOn(withExpr('vector(1) < 0'))).toMatch(failedCase('\\[\\n', '\\[\\]'));
    });

    it('has a case where it stays quiet (a rule that always fires fails the tests)', () => {
      expect(failsOn(withExpr('vector(1) > 0'))).toMatch(failedCase('\\[\\],', '\\[\\n'));
    });
  });
});
