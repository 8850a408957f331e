import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, ManagedProcess } from '../fault-matrix/processes';

export interface ScrapeTarget {
  /** `sts-<service>`, as the manifests and alert rules name jobs. */
  job: string;
  instance: string;
  /** host:port of the service's metrics listener. */
  address: string;
}

export interface Sample {
  metric: Record<string, string>;
  value: number;
}

const RULES = resolve(__dirname, '../../deploy/prometheus/alerts.yml');

/**
 * A real Prometheus (Debian's package binary) on a free loopback port with a
 * temp config and data directory, scraping the given targets every second
 * with the fleet's alert rules loaded; stopped (and its directory left for
 * reading) after the spec.
 */
export class PrometheusServer {
  url = '';
  private process?: ManagedProcess;

  constructor(private readonly dir: string) {}

  async start(targets: ScrapeTarget[]): Promise<void> {
    mkdirSync(join(this.dir, 'data'), { recursive: true });
    const config = [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files:',
      `  - ${JSON.stringify(RULES)}`,
      'scrape_configs:',
      ...[...new Set(targets.map((target) => target.job))].flatMap((job) => [
        `  - job_name: ${job}`,
        '    scrape_timeout: 900ms',
        '    static_configs:',
        ...targets
          .filter((target) => target.job === job)
          .flatMap((target) => [
            `      - targets: [${JSON.stringify(target.address)}]`,
            `        labels: { instance: ${JSON.stringify(target.instance)} }`,
          ]),
      ]),
    ].join('\n');
    writeFileSync(join(this.dir, 'prometheus.yml'), `${config}\n`);
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    this.process = new ManagedProcess({
      name: 'prometheus',
      command: 'prometheus',
      args: [
        `--config.file=${join(this.dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(this.dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      cwd: this.dir,
      logFile: join(this.dir, 'prometheus.out'),
    });
    this.process.start();
    await this.process.waitReady(async () => (await fetch(`${this.url}/-/ready`)).ok, 30_000);
  }

  /** An instant query; every sample with its labels and value. */
  async query(promql: string): Promise<Sample[]> {
    const response = await fetch(`${this.url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await response.json()) as {
      status: string;
      error?: string;
      data: {
        resultType: string;
        result: Array<{ metric: Record<string, string>; value: [number, string] }>;
      };
    };
    if (body.status !== 'success') {
      throw new Error(`${promql}: ${body.error}`);
    }
    return body.data.result.map((entry) => ({
      metric: entry.metric,
      value: Number(entry.value[1]),
    }));
  }

  /** The single value of a query that aggregates to one sample (NaN when it has none). */
  async value(promql: string): Promise<number> {
    const samples = await this.query(promql);
    return samples.length === 1 ? samples[0].value : Number.NaN;
  }

  /** Scrape targets as Prometheus sees them (health `up` once scraped). */
  async targets(): Promise<
    Array<{ job: string; instance: string; health: string; lastError: string }>
  > {
    const response = await fetch(`${this.url}/api/v1/targets`);
    const body = (await response.json()) as {
      data: {
        activeTargets: Array<{ labels: Record<string, string>; health: string; lastError: string }>;
      };
    };
    return body.data.activeTargets.map((target) => ({
      job: target.labels['job'],
      instance: target.labels['instance'],
      health: target.health,
      lastError: target.lastError,
    }));
  }

  /** Alerts firing or pending now. */
  async alerts(): Promise<Array<{ name: string; state: string }>> {
    const response = await fetch(`${this.url}/api/v1/alerts`);
    const body = (await response.json()) as {
      data: { alerts: Array<{ labels: Record<string, string>; state: string }> };
    };
    return body.data.alerts.map((alert) => ({
      name: alert.labels['alertname'],
      state: alert.state,
    }));
  }

  async stop(): Promise<void> {
    await this.process?.stop('SIGTERM', 10_000);
  }
}
