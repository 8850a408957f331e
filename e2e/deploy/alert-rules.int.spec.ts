import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';

/**
 * The alert rules (deploy/prometheus/alerts.yml) through Debian's promtool:
 * they parse, their unit tests pass, and the unit tests have teeth: with any
 * one alert made never to fire, or always to fire, the tests fail on that
 * alert (each has a firing and a quiet case). Every alert links its runbook
 * in docs/operations.md, and every runbook there is an alert's.
 */
const ROOT = resolve(__dirname, '../..');
const DIR = join(ROOT, 'deploy/prometheus');
const RULES = join(DIR, 'alerts.yml');
const TESTS = join(DIR, 'alerts.test.yml');
const RUNBOOKS = 'docs/operations.md';

interface Rule {
  alert: string;
  expr: string;
  annotations?: Record<string, string>;
}
interface RuleFile {
  groups: Array<{ name: string; rules: Rule[] }>;
}
interface UnitTestFile {
  tests: Array<{ alert_rule_test?: Array<{ alertname: string }> }>;
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
        'StsGatewayServerErrors',
        'StsHedgeFailure',
        'StsHedgeLatencyOverBudget',
        'StsKillSwitchLeftOn',
        'StsLiveTradeWithoutLease',
        'StsNotifierEventsBehind',
        'StsOutboxLag',
        'StsServiceDown',
        'StsUnhedgedExposure',
        'StsVenueLimitFull',
        'StsVenueRateLimited',
      ].sort(),
    );
  });

  describe('runbooks', () => {
    // The `### <alert>` headings of the Runbooks section, with the anchor a
    // Markdown renderer gives each (an alert's name is letters and digits).
    const runbookSection = (): Map<string, string> => {
      const text = readFileSync(join(ROOT, RUNBOOKS), 'utf8');
      const section = /^## Runbooks\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1] ?? '';
      const headings = [...section.matchAll(/^### (.+)$/gm)].map((match) => match[1].trim());
      return new Map(headings.map((heading) => [heading, heading.toLowerCase()]));
    };
    const runbookUrls = rules.groups.flatMap((group) =>
      group.rules.map((rule) => [rule.alert, rule.annotations?.runbook_url] as const),
    );

    it('links every alert to its own runbook in docs/operations.md', () => {
      const runbooks = runbookSection();
      for (const [alert, url] of runbookUrls) {
        expect({ alert, url }).toEqual({ alert, url: `${RUNBOOKS}#${runbooks.get(alert)}` });
      }
    });

    it('has a runbook for no alert that is gone', () => {
      expect([...runbookSection().keys()].sort()).toEqual([...alerts].sort());
    });
  });

  /**
   * The unit tests that judge one alert, alone: promtool evaluates every rule
   * each second of every test (evaluation_interval 1s), so the mutation runs
   * take the alert's own cases only (all of them took minutes).
   */
  const unitTests = parse(readFileSync(TESTS, 'utf8')) as UnitTestFile;
  const testsOf = (alert: string): UnitTestFile => ({
    ...unitTests,
    tests: unitTests.tests.filter((test) =>
      (test.alert_rule_test ?? []).some((check) => check.alertname === alert),
    ),
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
      writeFileSync(join(dir, 'alerts.test.yml'), stringify(testsOf(alert)));
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
