import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';

/**
 * The Grafana dashboard and the alert rules read series the services
 * actually export: every query parses as PromQL (promtool, as recording
 * rules), and every `sts_*` series they name is registered in the source.
 */
const ROOT = resolve(__dirname, '../..');
const dashboard = JSON.parse(
  readFileSync(join(ROOT, 'deploy/grafana/spread-trading.json'), 'utf8'),
) as { panels: Array<{ type: string; title: string; targets?: Array<{ expr: string }> }> };
const queries = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
);
const alerts = readFileSync(join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8');

const sourceText = (dir: string): string =>
  readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) =>
      statSync(path).isDirectory()
        ? sourceText(path)
        : path.endsWith('.ts') && !path.endsWith('.spec.ts')
          ? readFileSync(path, 'utf8')
          : '',
    )
    .join('\n');

describe('Grafana dashboard', () => {
  it('covers trades, fills and hedges, latency, exposure, budgets and errors', () => {
    const rows = dashboard.panels.filter((panel) => panel.type === 'row').map((row) => row.title);
    expect(rows).toEqual([
      'Trades',
      'Fills and hedges',
      'Latency',
      'Exposure',
      'Budgets and venues',
      'Errors and edges',
    ]);
    expect(queries.length).toBeGreaterThan(20);
  });

  it('has queries that parse as PromQL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sts-dashboard-'));
    try {
      const rules = {
        groups: [
          {
            name: 'dashboard',
            rules: queries.map((query, index) => ({
              record: `dashboard:q${index}`,
              expr: query.expr,
            })),
          },
        ],
      };
      writeFileSync(join(dir, 'queries.yml'), stringify(rules));
      const result = spawnSync('promtool', ['check', 'rules', join(dir, 'queries.yml')], {
        encoding: 'utf8',
      });
      expect(result.stdout + result.stderr).toContain(`SUCCESS: ${queries.length} rules found`);
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names only series the services register (dashboard and alert rules)', () => {
    const source = sourceText(join(ROOT, 'apps')) + sourceText(join(ROOT, 'libs'));
    const named = new Set(
      [...queries.map((query) => query.expr), alerts]
        .flatMap((text) => text.match(/\bsts_[a-z_]+/g) ?? [])
        .map((name) => name.replace(/_(bucket|count|sum)$/, '')),
    );
    expect(named.size).toBeGreaterThan(20);
    const missing = [...named].filter((name) => !source.includes(`'${name}'`));
    expect(missing).toEqual([]);
  });
});
