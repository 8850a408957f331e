import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

/**
 * Lint probes: files that break a boundary of eslint.config.mjs are written
 * into the libs for one eslint run and deleted, and each must fail lint for
 * the rule that guards it. A control probe must pass, so the spec fails if
 * lint failed everything. Their names start with `__probe_`, which
 * tools/build.mjs never reads: other specs build while these exist.
 */
const ROOT = resolve(__dirname, '../../../..');
const ESLINT = join(ROOT, 'node_modules/eslint/bin/eslint.js');
const tag = `${process.pid}_${Date.now()}`;

interface Probe {
  path: string;
  source: string;
}

const probes = {
  domainFs: {
    path: `libs/domain/src/__probe_fs_${tag}.ts`,
    source: "import { readFileSync } from 'node:fs';\n\nexport const probe = readFileSync;\n",
  },
  domainViem: {
    path: `libs/domain/src/__probe_viem_${tag}.ts`,
    source: "import { parseEther } from 'viem';\n\nexport const probe = parseEther;\n",
  },
  venueReachesPersistence: {
    path: `libs/venues/src/__probe_persistence_${tag}.ts`,
    source:
      "import * as persistence from '@sts/persistence';\n\nexport const probe = persistence;\n",
  },
  control: {
    path: `libs/domain/src/__probe_control_${tag}.ts`,
    source:
      "import Big from 'big.js';\nimport { createHash } from 'node:crypto';\n\n" +
      "export const probe = (): string => createHash('sha256').update(new Big(1).toFixed()).digest('hex');\n",
  },
  venueControl: {
    path: `libs/venues/src/__probe_platform_${tag}.ts`,
    source: "import { sleep } from '@sts/platform';\n\nexport const probe = sleep;\n",
  },
  tradesSql: {
    path: `apps/gateway/src/__probe_trades_sql_${tag}.ts`,
    source: 'export const probe = `UPDATE trades SET status = $1\n  WHERE id = $2`;\n',
  },
  tradesEntity: {
    path: `apps/worker/src/__probe_trades_entity_${tag}.ts`,
    source:
      "import type { DataSource } from 'typeorm';\nimport { TradeEntity } from '@sts/persistence';\n\n" +
      'export const probe = (db: DataSource): Promise<number> => db.getRepository(TradeEntity).count();\n',
  },
  tradesProse: {
    path: `apps/gateway/src/__probe_trades_prose_${tag}.ts`,
    source: "export const probe = 'reads trades from Postgres, then FROM trades_archive';\n",
  },
  tradesOwner: {
    path: `libs/persistence/src/trades/__probe_trades_owner_${tag}.ts`,
    source: "export const probe = 'SELECT id FROM trades WHERE id = $1';\n",
  },
  logSql: {
    path: `apps/notifier/src/__probe_log_sql_${tag}.ts`,
    source: 'export const probe = `SELECT data FROM trade_events\n  WHERE trade_id = $1`;\n',
  },
  logEntity: {
    path: `apps/gateway/src/__probe_log_entity_${tag}.ts`,
    source:
      "import type { DataSource } from 'typeorm';\nimport { TradeEventEntity } from '@sts/persistence';\n\n" +
      'export const probe = (db: DataSource): Promise<number> => db.getRepository(TradeEventEntity).count();\n',
  },
  logByKey: {
    path: `apps/worker/src/__probe_log_by_key_${tag}.ts`,
    source:
      "export const probe = (entry: { data: Record<string, unknown> }): unknown => entry.data['price'];\n",
  },
  logByKeySql: {
    path: `apps/gateway/src/__probe_log_by_key_sql_${tag}.ts`,
    source: "export const probe = `SELECT data->>'size' AS size FROM fills`;\n",
  },
  logByKeyInPersistence: {
    path: `libs/persistence/src/trades/__probe_log_by_key_${tag}.ts`,
    source:
      "export const probe = `SELECT e.data->>'size' FROM trade_events e WHERE trade_id = $1`;\n",
  },
  logOwner: {
    path: `libs/persistence/src/trades/__probe_log_owner_${tag}.ts`,
    source: "export const probe = 'SELECT data FROM trade_events WHERE trade_id = $1';\n",
  },
} satisfies Record<string, Probe>;

interface LintMessage {
  ruleId: string | null;
  message: string;
}

/**
 * ESLint's run over `files`, type-aware rules included. Its timeout is long: a
 * clean-clone CI on a slow hour, other spec files beside it, took more than the
 * minute it once had (13 s on a quiet machine).
 */
function eslint(files: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(
    process.execPath,
    [ESLINT, '--format', 'json', '--max-warnings', '0', ...files],
    {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 180_000,
    },
  );
}

/** The JSON report of a run, or an error that says how the run ended instead. */
function reportOf(run: ReturnType<typeof eslint>): { filePath: string; messages: LintMessage[] }[] {
  if (!run.stdout) {
    throw new Error(
      `eslint gave no report (status ${run.status}, signal ${run.signal}): ${run.stderr}`,
    );
  }
  return JSON.parse(run.stdout) as { filePath: string; messages: LintMessage[] }[];
}

describe('lint probes', () => {
  const messages = new Map<string, LintMessage[]>();

  beforeAll(() => {
    const all = Object.values(probes);
    try {
      for (const probe of all) {
        writeFileSync(join(ROOT, probe.path), probe.source);
      }
      const run = eslint(all.map((probe) => probe.path));
      for (const result of reportOf(run)) {
        messages.set(relative(ROOT, result.filePath), result.messages);
      }
    } finally {
      for (const probe of all) {
        rmSync(join(ROOT, probe.path), { force: true });
      }
    }
  }, 200_000);

  const rulesOf = (probe: Probe): (string | null)[] =>
    (messages.get(probe.path) ?? []).map((message) => message.ruleId);

  it('passes a domain file that imports only big.js and node:crypto (control)', () => {
    expect(messages.get(probes.control.path)).toEqual([]);
  });

  it('passes a venue adapter that imports the platform lib (control)', () => {
    expect(messages.get(probes.venueControl.path)).toEqual([]);
  });

  it('fails a domain file that imports node:fs', () => {
    expect(rulesOf(probes.domainFs)).toContain('no-restricted-imports');
  });

  it('fails a domain file that imports viem', () => {
    expect(rulesOf(probes.domainViem)).toEqual(
      expect.arrayContaining(['no-restricted-imports', '@nx/enforce-module-boundaries']),
    );
  });

  it('fails @sts/venues importing @sts/persistence', () => {
    expect(rulesOf(probes.venueReachesPersistence)).toContain('@nx/enforce-module-boundaries');
  });

  it('fails a statement on trades outside TradeRepository, as SQL text or a TradeEntity repository', () => {
    expect(rulesOf(probes.tradesSql)).toEqual(['no-restricted-syntax']);
    expect(rulesOf(probes.tradesEntity)).toEqual(['no-restricted-syntax']);
  });

  it('passes prose about trades, and the statements of TradeRepository itself (controls)', () => {
    expect(messages.get(probes.tradesProse.path)).toEqual([]);
    expect(messages.get(probes.tradesOwner.path)).toEqual([]);
  });

  it('fails a statement on trade_events outside TradeEventRepository, and an entry read by key', () => {
    expect(rulesOf(probes.logSql)).toEqual(['no-restricted-syntax']);
    expect(rulesOf(probes.logEntity)).toEqual(['no-restricted-syntax']);
    expect(rulesOf(probes.logByKey)).toEqual(['no-restricted-syntax']);
    expect(rulesOf(probes.logByKeySql)).toEqual(['no-restricted-syntax']);
    // Where the log's statements live, a field is named through logFieldSql, not by hand.
    expect(rulesOf(probes.logByKeyInPersistence)).toEqual(['no-restricted-syntax']);
  });

  it('passes the statements of TradeEventRepository itself (control)', () => {
    expect(messages.get(probes.logOwner.path)).toEqual([]);
  });

  it('fails when the Nx project graph is missing, instead of skipping the boundaries', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-nx-graph-'));
    try {
      const withGraph = eslint(['eslint.config.mjs']);
      expect(withGraph.status).toBe(0);
      const withoutGraph = eslint(['eslint.config.mjs'], {
        ...process.env,
        NX_WORKSPACE_DATA_DIRECTORY: empty,
      });
      expect(withoutGraph.status).not.toBe(0);
      expect(withoutGraph.stderr).toContain('No Nx project graph');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 120_000);
});
