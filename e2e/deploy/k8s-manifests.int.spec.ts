import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * deploy/k8s: the kustomize base and the paper overlay render (`kubectl
 * kustomize`, where kubectl is installed), every document is valid against
 * the Kubernetes API schemas (tools/validate-k8s.mjs, kubernetes-models), and
 * the fleet's operating rules hold in what is rendered.
 */
const ROOT = resolve(__dirname, '../..');
const K8S = join(ROOT, 'deploy/k8s');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

const validate = (yamlText: string) =>
  spawnSync(process.execPath, [join(ROOT, 'tools/validate-k8s.mjs')], {
    input: yamlText,
    encoding: 'utf8',
    cwd: ROOT,
  });

const render = (path: string): string => {
  const result = spawnSync('kubectl', ['kustomize', join(K8S, path)], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`kubectl kustomize ${path}: ${result.stderr}`);
  }
  return result.stdout;
};

const documents = (yamlText: string): any[] =>
  parseAllDocuments(yamlText)
    .map((document) => document.toJS())
    .filter(Boolean);

describe('Kubernetes manifests', () => {
  it('validates every manifest file of the base and the overlay against the API schemas', () => {
    const files = ['base', 'overlays/paper'].flatMap((dir) =>
      readdirSync(join(K8S, dir))
        .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
        .filter((file) => !file.endsWith('.patch.yaml'))
        .map((file) => readFileSync(join(K8S, dir, file), 'utf8')),
    );
    const result = validate(files.join('\n---\n'));
    expect(result.stdout).toMatch(/ 0 invalid\n$/);
    expect(result.status).toBe(0);
  });

  it('refuses a manifest the API would refuse (the validator bites)', () => {
    const result = validate(
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: { name: broken }',
        'spec:',
        '  selector: {}',
        '  template:',
        '    spec:',
        '      containers: [{ name: a, image: b, readinessProbe: { httpGet: { path: /readyz } } }]',
      ].join('\n'),
    );
    expect(result.stdout).toContain('INVALID Deployment/broken');
    expect(result.stdout).toContain('must have required property port');
    expect(result.status).toBe(1);
  });

  // kubectl is not a Debian package of this release (docs/operations.md); without it the
  // rendered checks are skipped, the file checks above still run.
  const rendered = hasKubectl ? describe : describe.skip;
  rendered.each(['base', 'overlays/paper'])('%s rendered by kubectl kustomize', (path) => {
    const yamlText = hasKubectl ? render(path) : '';
    const all = documents(yamlText);
    const ofKind = (kind: string) => all.filter((doc) => doc.kind === kind);
    const deployments = ofKind('Deployment');
    const named = (kind: string, name: string) =>
      ofKind(kind).find((doc) => doc.metadata.name === name);

    it('is valid against the Kubernetes API schemas', () => {
      const result = validate(yamlText);
      expect(result.stdout).toMatch(/ 0 invalid\n$/);
      expect(result.status).toBe(0);
    });

    it('has a Deployment per service, each with probes, requests and limits', () => {
      const expected = ['budget', 'gateway', 'notifier', 'worker'];
      if (path.includes('paper')) {
        expected.push('venue-sim');
      }
      expect(deployments.map((doc) => doc.metadata.name).sort()).toEqual(expected.sort());
      for (const deployment of deployments) {
        for (const container of deployment.spec.template.spec.containers) {
          const where = `${deployment.metadata.name}/${container.name}`;
          expect([where, container.livenessProbe?.httpGet?.path]).toEqual([where, '/livez']);
          expect([where, container.readinessProbe?.httpGet?.path]).toEqual([where, '/readyz']);
          expect([where, Object.keys(container.resources?.requests ?? {}).sort()]).toEqual([
            where,
            ['cpu', 'memory'],
          ]);
          expect([where, Object.keys(container.resources?.limits ?? {}).sort()]).toEqual([
            where,
            ['cpu', 'memory'],
          ]);
          const metricsPort = container.ports.find((port: any) => port.name === 'metrics');
          expect([where, String(metricsPort?.containerPort)]).toEqual([
            where,
            deployment.spec.template.metadata.annotations['prometheus.io/port'],
          ]);
        }
      }
    });

    it("serves the console from where the image's build puts it", () => {
      const gateway = named('Deployment', 'gateway');
      const env = Object.fromEntries(
        gateway.spec.template.spec.containers[0].env.map((entry: any) => [entry.name, entry.value]),
      );
      // deploy/Dockerfile: WORKDIR /app, dist/ copied whole; tools/build.mjs: dist/apps/console.
      expect(env['CONSOLE_DIR']).toBe('/app/dist/apps/console');
      expect(readFileSync(join(ROOT, 'deploy/Dockerfile'), 'utf8')).toMatch(
        /WORKDIR \/app[\s\S]*COPY --from=build \/app\/dist \.\/dist/,
      );
    });

    it("gives a worker longer to stop than its trades' hand-over", () => {
      const worker = named('Deployment', 'worker');
      const env = Object.fromEntries(
        worker.spec.template.spec.containers[0].env.map((entry: any) => [entry.name, entry.value]),
      );
      const graceS = worker.spec.template.spec.terminationGracePeriodSeconds;
      expect(graceS * 1000).toBeGreaterThanOrEqual(Number(env['WORKER_SHUTDOWN_GRACE_MS']) * 3);
    });

    it('scales workers on live trades per worker, with disruption budgets for every service', () => {
      const hpa = named('HorizontalPodAutoscaler', 'worker');
      expect(hpa.spec.scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'worker',
      });
      expect(hpa.spec.metrics[0].pods.metric.name).toBe('sts_worker_live_trades');
      for (const name of ['gateway', 'notifier', 'budget', 'worker']) {
        const budget = named('PodDisruptionBudget', name);
        expect([name, budget?.spec.selector.matchLabels]).toEqual([
          name,
          named('Deployment', name).spec.selector.matchLabels,
        ]);
      }
    });

    it('lets only the gateway and the notifier take traffic from outside', () => {
      const policies = ofKind('NetworkPolicy');
      const denyAll = policies.find(
        (policy) =>
          Object.keys(policy.spec.podSelector).length === 0 &&
          policy.spec.policyTypes.includes('Ingress') &&
          !policy.spec.ingress,
      );
      expect(denyAll).toBeDefined();
      // A rule without `from` admits anyone: only edge pods may have one.
      const openTo = policies
        .filter((policy) => (policy.spec.ingress ?? []).some((rule: any) => !rule.from))
        .map((policy) => policy.spec.podSelector.matchLabels ?? {});
      expect(openTo).toEqual([{ 'sts.io/edge': 'true' }]);
      const edge = deployments
        .filter((doc) => doc.spec.template.metadata.labels['sts.io/edge'] === 'true')
        .map((doc) => doc.metadata.name)
        .sort();
      expect(edge).toEqual(['gateway', 'notifier']);
    });

    it('holds no secret: Secrets are referenced by name only', () => {
      expect(ofKind('Secret')).toEqual([]);
      expect(yamlText).toContain('secretKeyRef');
      expect(yamlText).not.toMatch(/CREDENTIALS_KEK\s*:\s*\S+/);
    });

    it('references Postgres, NATS and Redis as external services', () => {
      for (const name of ['sts-postgres', 'sts-nats', 'sts-redis']) {
        expect([name, named('Service', name)?.spec.type]).toEqual([name, 'ExternalName']);
      }
    });

    it("ships the checked-in venue registry as the services' ConfigMap", () => {
      const registry = ofKind('ConfigMap').find((doc) =>
        doc.metadata.name.startsWith('sts-venue-registry'),
      );
      expect(JSON.parse(registry.data['venues.json'])).toEqual(
        JSON.parse(readFileSync(join(ROOT, 'libs/platform/src/config/venues.json'), 'utf8')),
      );
    });
  });
});
