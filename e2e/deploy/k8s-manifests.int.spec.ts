import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BlockList } from 'node:net';
import { parseEgressPlan } from '@sts/platform';
import { K8S, OVERLAYS, ROOT, documents, hasKubectl, render, validate } from './k8s-render';

/**
 * deploy/k8s: the kustomize base and the paper and live overlays render
 * (`kubectl kustomize`, where kubectl is installed), every document is valid
 * against the Kubernetes API schemas, unknown fields refused (deploy/k8s/validate.mjs;
 * the custom resources against deploy/k8s/schemas), and the fleet's operating rules
 * hold in what is rendered, the overlays' three-server NATS cluster (components/nats)
 * included, and the live-egress overlay's egress plan and pool (issue 61). Images and pods: k8s-pods.int.spec.ts; the validator's own probes:
 * k8s-validate.int.spec.ts.
 */

describe('Kubernetes manifests', () => {
  it('validates every manifest file of the base, the overlays and the components against the API schemas', () => {
    const files = [...OVERLAYS, 'components/monitoring', 'components/nats'].flatMap((dir) =>
      readdirSync(join(K8S, dir))
        .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
        .filter((file) => !file.endsWith('.patch.yaml'))
        .map((file) => readFileSync(join(K8S, dir, file), 'utf8')),
    );
    const result = validate(files.join('\n---\n'));
    expect(result.stdout).toMatch(/ 0 invalid\n$/);
    expect(result.status).toBe(0);
  });

  it('gives each worker whole CPUs of the Guaranteed class, so its event loop is not throttled', () => {
    const worker = documents(readFileSync(join(K8S, 'base/worker.yaml'), 'utf8')).find(
      (doc) => doc.kind === 'Deployment' && doc.metadata.name === 'worker',
    );
    const { requests, limits } = worker.spec.template.spec.containers[0].resources;
    // Guaranteed: every request equals its limit; the static CPU manager pins whole CPUs only.
    expect(requests).toEqual(limits);
    expect(Number.isInteger(Number(limits.cpu))).toBe(true);
    expect(Number(limits.cpu)).toBeGreaterThanOrEqual(2);
  });

  const rendered = hasKubectl ? describe : describe.skip;
  rendered.each(OVERLAYS)('%s rendered by kubectl kustomize', (path) => {
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
      expect(yamlText).not.toMatch(/WEBHOOK_SECRETS_KEK\s*:\s*\S+/);
    });

    it('references Postgres and Redis as external services, NATS too in the base only', () => {
      for (const name of ['sts-postgres', 'sts-redis']) {
        expect([name, named('Service', name)?.spec.type]).toEqual([name, 'ExternalName']);
      }
      const nats = named('Service', 'sts-nats');
      if (path === 'base') {
        expect(nats.spec.type).toBe('ExternalName');
        return;
      }
      // The overlays run their own cluster (components/nats): sts-nats, the host of the
      // Secret's NATS_URL, is its client Service, on the servers' client port.
      const servers = named('StatefulSet', 'nats');
      expect(nats.spec.type).toBe('ClusterIP');
      expect(nats.spec.externalName).toBeUndefined();
      expect(nats.spec.selector).toEqual(servers.spec.selector.matchLabels);
      const [port] = nats.spec.ports;
      const target = servers.spec.template.spec.containers[0].ports.find(
        (item: any) => item.name === port.targetPort,
      );
      expect([port.port, target?.containerPort]).toEqual([4222, 4222]);
    });

    it('reads every credential from a Secret: connection URLs and the key, never the ConfigMap', () => {
      const config = ofKind('ConfigMap').find((doc) => doc.metadata.name === 'sts-config');
      for (const name of [
        'DATABASE_URL',
        'NATS_URL',
        'REDIS_URL',
        'CREDENTIALS_KEK',
        'WEBHOOK_SECRETS_KEK',
      ]) {
        expect([name, config.data[name]]).toEqual([name, undefined]);
      }
      for (const deployment of deployments.filter((doc) => doc.metadata.name !== 'venue-sim')) {
        const env = deployment.spec.template.spec.containers[0].env;
        for (const name of ['DATABASE_URL', 'NATS_URL', 'REDIS_URL']) {
          const entry = env.find((item: any) => item.name === name);
          expect([deployment.metadata.name, name, entry?.valueFrom?.secretKeyRef?.key]).toEqual([
            deployment.metadata.name,
            name,
            name,
          ]);
        }
      }
    });

    it('gives the notifier the webhook secrets key from a Secret, never the credentials key', () => {
      const envOf = (name: string) =>
        named('Deployment', name).spec.template.spec.containers[0].env.map(
          (entry: any) => entry.name,
        );
      for (const name of ['gateway', 'notifier']) {
        const entry = named('Deployment', name).spec.template.spec.containers[0].env.find(
          (item: any) => item.name === 'WEBHOOK_SECRETS_KEK',
        );
        expect([name, entry?.valueFrom?.secretKeyRef?.key]).toEqual([name, 'WEBHOOK_SECRETS_KEK']);
      }
      expect(envOf('notifier')).not.toContain('CREDENTIALS_KEK');
      expect(envOf('gateway')).toContain('CREDENTIALS_KEK');
    });

    // base/edge.yaml: the Gateway API (ingress-nginx, which the Ingress was written for, is
    // retired); one Gateway `sts` ends TLS, its HTTPRoutes reach the Services.
    const listener = (protocol: string) =>
      named('Gateway', 'sts')?.spec.listeners.find((item: any) => item.protocol === protocol);
    const rulesOf = (route: string) => named('HTTPRoute', route)?.spec.rules ?? [];

    it('routes the API and console to the gateway and the WebSocket to the notifier, over TLS', () => {
      expect(ofKind('Ingress')).toEqual([]);
      const https = listener('HTTPS');
      expect([https.port, https.tls.mode, https.tls.certificateRefs]).toEqual([
        443,
        'Terminate',
        [{ name: 'sts-tls' }],
      ]);
      expect(https.allowedRoutes).toEqual({ namespaces: { from: 'Same' } });
      // The host is the listener's alone: a route with hostnames of its own could narrow it.
      expect(named('HTTPRoute', 'sts').spec).toEqual(
        expect.objectContaining({ parentRefs: [{ name: 'sts', sectionName: https.name }] }),
      );
      expect(named('HTTPRoute', 'sts').spec.hostnames).toBeUndefined();
      const ruleFor = (prefix: string) =>
        rulesOf('sts').find((rule: any) =>
          rule.matches.some(
            (match: any) => match.path.type === 'PathPrefix' && match.path.value === prefix,
          ),
        );
      const backendOf = (prefix: string) => {
        const [backend, ...others] = ruleFor(prefix)?.backendRefs ?? [];
        // The port must be one of the Service's, else the route reaches nothing.
        const port = named('Service', backend?.name)?.spec.ports.find(
          (item: any) => item.port === backend.port,
        );
        return [backend?.name, port?.name, others.length];
      };
      expect(backendOf('/api/v1/ws')).toEqual(['notifier', 'ws', 0]);
      expect(backendOf('/')).toEqual(['gateway', 'http', 0]);
      expect(rulesOf('sts')).toHaveLength(2);
      // A WebSocket lasts hours: no request timeout on its route (0s turns it off).
      expect(ruleFor('/api/v1/ws').timeouts).toEqual({ request: '0s' });
    });

    it('answers plain HTTP with a redirect to HTTPS, on the same host, and nothing else', () => {
      const http = listener('HTTP');
      expect([http.port, http.hostname]).toEqual([80, listener('HTTPS').hostname]);
      const attached = ofKind('HTTPRoute').filter((route) =>
        route.spec.parentRefs.some((parent: any) => parent.sectionName === http.name),
      );
      expect(attached.map((route) => route.metadata.name)).toEqual(['sts-https-redirect']);
      expect(rulesOf('sts-https-redirect')).toEqual([
        {
          filters: [
            { type: 'RequestRedirect', requestRedirect: { scheme: 'https', statusCode: 301 } },
          ],
        },
      ]);
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

  // components/nats, in both overlays: a three-server JetStream cluster (issue 56).
  (hasKubectl ? describe : describe.skip).each(OVERLAYS.filter((path) => path !== 'base'))(
    '%s: the NATS cluster',
    (path) => {
      const all = hasKubectl ? documents(render(path)) : [];
      const ofKind = (kind: string) => all.filter((doc) => doc.kind === kind);
      const named = (kind: string, name: string) =>
        ofKind(kind).find((doc) => doc.metadata.name === name);
      const servers = named('StatefulSet', 'nats');
      const pod = servers?.spec.template.spec;
      const container = pod?.containers.find((item: any) => item.name === 'nats');
      const podLabels = servers?.spec.selector.matchLabels;
      const selects = (selector: any) =>
        Object.entries(selector ?? {}).every(([label, value]) => podLabels[label] === value);
      const configName = pod?.volumes.find((volume: any) => volume.name === 'config')?.configMap
        .name;
      const natsConf: string = named('ConfigMap', configName)?.data['nats.conf'] ?? '';
      /** A setting of a Deployment's first container: its env, else its envFrom ConfigMaps. */
      const setting = (deployment: any, name: string): string | undefined => {
        const [first] = deployment.spec.template.spec.containers;
        const entry = (first.env ?? []).find((item: any) => item.name === name);
        if (entry) {
          return entry.value ?? `from ${JSON.stringify(entry.valueFrom)}`;
        }
        return (first.envFrom ?? [])
          .map((source: any) => named('ConfigMap', source.configMapRef?.name)?.data?.[name])
          .find((value: unknown) => value !== undefined);
      };
      const natsClients = ofKind('Deployment').filter(
        (deployment) => setting(deployment, 'NATS_URL') !== undefined,
      );
      const quorum = (members: number) => Math.floor(members / 2) + 1;

      it('runs three servers, each with its own JetStream volume, routed to one another by name', () => {
        expect(servers.spec.replicas).toBe(3);
        // Routes must resolve before any server is ready: a headless Service publishing
        // pods not yet ready, named as the StatefulSet's serviceName.
        const headless = named('Service', servers.spec.serviceName);
        expect(headless.spec.clusterIP).toBe('None');
        expect(headless.spec.publishNotReadyAddresses).toBe(true);
        expect(headless.spec.selector).toEqual(podLabels);
        expect(headless.spec.ports.map((port: any) => port.port)).toContain(6222);
        // One route per server, each pod by its stable name: a server added without its
        // route would not join, one removed would be retried for ever.
        const routes = [
          ...(/routes:\s*\[([^\]]*)\]/.exec(natsConf)?.[1] ?? '').matchAll(/nats:\/\/(\S+)/g),
        ].map((match) => match[1]);
        expect(routes).toEqual(
          Array.from(
            { length: servers.spec.replicas },
            (_, index) => `nats-${index}.${servers.spec.serviceName}:6222`,
          ),
        );
        expect(natsConf).toMatch(/^cluster\s*\{[\s\S]*^\s*port:\s*6222$/m);
        // A JetStream peer keeps its name over restarts: the pod's.
        expect(natsConf).toMatch(/^server_name:\s*\$SERVER_NAME$/m);
        expect(container.env).toContainEqual({
          name: 'SERVER_NAME',
          valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
        });
        // The store on the claim, bounded under the claim's size.
        const [claim] = servers.spec.volumeClaimTemplates;
        const mount = container.volumeMounts.find((item: any) => item.name === claim.metadata.name);
        expect(natsConf).toMatch(new RegExp(`^\\s*store_dir:\\s*${mount.mountPath}$`, 'm'));
        const gi = (text: string) => Number(/^(\d+)Gi$/.exec(text)?.[1]);
        const maxFile = /^\s*max_file:\s*(\S+)$/m.exec(natsConf)?.[1] ?? '';
        expect(gi(maxFile)).toBeLessThan(gi(claim.spec.resources.requests.storage));
        expect(claim.spec.accessModes).toEqual(['ReadWriteOnce']);
      });

      it('keeps every stream and KV bucket on three servers, in every service that reads NATS_URL', () => {
        expect(natsClients.map((deployment) => deployment.metadata.name).sort()).toEqual(
          ['budget', 'gateway', 'notifier', 'worker'].sort(),
        );
        for (const deployment of natsClients) {
          const replicas = setting(deployment, 'NATS_REPLICAS');
          const where = deployment.metadata.name;
          // Issue 56: R3. More copies than servers and every service's boot is refused.
          expect([where, replicas]).toEqual([where, '3']);
          expect([where, Number(replicas) <= servers.spec.replicas]).toEqual([where, true]);
        }
      });

      it('loses no quorum to a voluntary disruption, one server per node', () => {
        const budget = ofKind('PodDisruptionBudget').find((doc) =>
          selects(doc.spec.selector.matchLabels),
        );
        expect(budget.spec.maxUnavailable).toBe(1);
        const streamReplicas = Number(setting(natsClients[0], 'NATS_REPLICAS'));
        // The meta group (every server) and each stream's group keep a majority.
        expect(servers.spec.replicas - budget.spec.maxUnavailable).toBeGreaterThanOrEqual(
          quorum(servers.spec.replicas),
        );
        expect(streamReplicas - budget.spec.maxUnavailable).toBeGreaterThanOrEqual(
          quorum(streamReplicas),
        );
        expect(pod.topologySpreadConstraints).toContainEqual(
          expect.objectContaining({
            topologyKey: 'kubernetes.io/hostname',
            maxSkew: 1,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: podLabels },
          }),
        );
        // Every server starts at once: one alone never elects a meta leader.
        expect(servers.spec.podManagementPolicy).toBe('Parallel');
      });

      it('is ready on JetStream, started once caught up, and stops in lame duck mode', () => {
        const monitor = container.ports.find((port: any) => port.name === 'monitor');
        expect(monitor.containerPort).toBe(8222);
        expect(natsConf).toMatch(/^http_port:\s*8222$/m);
        expect(container.readinessProbe.httpGet).toEqual({
          path: '/healthz?js-enabled-only=true',
          port: 'monitor',
        });
        expect(container.livenessProbe.httpGet.path).toBe('/healthz?js-enabled-only=true');
        expect(container.startupProbe.httpGet.path).toBe('/healthz');
        const pidFile = /^pid_file:\s*(\S+)$/m.exec(natsConf)?.[1];
        expect(container.lifecycle.preStop.exec.command).toEqual([
          'nats-server',
          `-sl=ldm=${pidFile}`,
        ]);
        const seconds = (name: string) =>
          Number(new RegExp(`^${name}:\\s*(\\d+)s$`, 'm').exec(natsConf)?.[1]);
        expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(
          seconds('lame_duck_grace_period') + seconds('lame_duck_duration'),
        );
      });

      it('runs like the fleet: pinned image, requests and limits, unprivileged, read-only', () => {
        expect(container.image).toMatch(/^nats:\d+\.\d+(\.\d+)?-alpine$/);
        const { requests, limits } = container.resources;
        expect(Object.keys(requests).sort()).toEqual(['cpu', 'memory']);
        expect(Object.keys(limits).sort()).toEqual(['cpu', 'memory']);
        // Go sizes its threads by the node's CPUs, not by the quota.
        expect(container.env).toContainEqual({ name: 'GOMAXPROCS', value: String(limits.cpu) });
        expect(pod.securityContext).toEqual(
          expect.objectContaining({
            runAsNonRoot: true,
            seccompProfile: { type: 'RuntimeDefault' },
          }),
        );
        expect(container.securityContext).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(pod.automountServiceAccountToken).toBe(false);
      });

      it('takes clients from the services that read NATS_URL, routes from its own servers only', () => {
        const policies = ofKind('NetworkPolicy').filter((policy) =>
          selects(policy.spec.podSelector.matchLabels),
        );
        const admits = (port: number, labels: Record<string, string>) =>
          policies.some((policy) =>
            (policy.spec.ingress ?? []).some(
              (rule: any) =>
                rule.ports.some((item: any) => item.port === port) &&
                rule.from.some((peer: any) => {
                  if (!peer.podSelector || peer.namespaceSelector) return false;
                  const { matchLabels = {}, matchExpressions = [] } = peer.podSelector;
                  return (
                    Object.entries(matchLabels).every(([key, value]) => labels[key] === value) &&
                    matchExpressions.every(
                      (expression: any) =>
                        expression.operator === 'In' &&
                        expression.values.includes(labels[expression.key]),
                    )
                  );
                }),
            ),
          );
        for (const deployment of natsClients) {
          const labels = deployment.spec.template.metadata.labels;
          expect([deployment.metadata.name, admits(4222, labels)]).toEqual([
            deployment.metadata.name,
            true,
          ]);
        }
        expect(admits(6222, servers.spec.template.metadata.labels)).toBe(true);
        expect(admits(6222, { 'app.kubernetes.io/name': 'worker' })).toBe(false);
      });
    },
  );

  (hasKubectl ? describe : describe.skip)('the live overlay', () => {
    const all = hasKubectl ? documents(render('overlays/live')) : [];
    const ofKind = (kind: string) => all.filter((doc) => doc.kind === kind);
    const named = (kind: string, name: string) =>
      ofKind(kind).find((doc) => doc.metadata.name === name);

    it('trades on every venue live, with no simulator', () => {
      const config = named('ConfigMap', 'sts-config');
      const venues = Object.keys(
        JSON.parse(readFileSync(join(ROOT, 'libs/platform/src/config/venues.json'), 'utf8')),
      );
      for (const venue of venues) {
        expect([venue, config.data[`VENUE_${venue.toUpperCase()}_MODE`]]).toEqual([venue, 'live']);
      }
      expect(config.data['VENUE_SIM_URL']).toBeUndefined();
      expect(named('Deployment', 'venue-sim')).toBeUndefined();
      const https = named('Gateway', 'sts').spec.listeners.find(
        (listener: any) => listener.protocol === 'HTTPS',
      );
      expect(config.data['CONSOLE_NOTIFIER_WS_URL']).toBe(`wss://${https.hostname}/api/v1/ws`);
    });

    it('gives each key, from a Secret of its own, to its readers only: the notifier never the credentials key', () => {
      const readersOf = (variable: string) =>
        ofKind('Deployment')
          .map((deployment) => [
            deployment.metadata.name,
            deployment.spec.template.spec.containers[0].env.find(
              (entry: any) => entry.name === variable,
            )?.valueFrom?.secretKeyRef?.name,
          ])
          .filter(([, secret]) => secret !== undefined)
          .sort();
      expect(readersOf('CREDENTIALS_KEK')).toEqual([
        ['gateway', 'sts-credentials-kek'],
        ['worker', 'sts-credentials-kek'],
      ]);
      // The gateway seals the webhook signing secrets, the notifier opens them to sign.
      expect(readersOf('WEBHOOK_SECRETS_KEK')).toEqual([
        ['gateway', 'sts-webhook-secrets-kek'],
        ['notifier', 'sts-webhook-secrets-kek'],
      ]);
    });

    it('runs more replicas than paper', () => {
      expect(named('Deployment', 'gateway').spec.replicas).toBeGreaterThanOrEqual(2);
      expect(named('Deployment', 'notifier').spec.replicas).toBeGreaterThanOrEqual(2);
      expect(named('HorizontalPodAutoscaler', 'worker').spec.minReplicas).toBeGreaterThanOrEqual(2);
    });

    it("scrapes every service's metrics port through a ServiceMonitor, as the jobs the alerts name", () => {
      const [monitor, ...others] = ofKind('ServiceMonitor');
      expect(others).toEqual([]);
      const selects = (service: any) =>
        Object.entries(monitor.spec.selector.matchLabels).every(
          ([label, value]) => service.metadata.labels?.[label] === value,
        );
      const withMetrics = ofKind('Service').filter((service) =>
        (service.spec.ports ?? []).some((port: any) => port.name === 'metrics'),
      );
      expect(withMetrics.map((service) => service.metadata.name).sort()).toEqual(
        ['budget-metrics', 'gateway', 'notifier', 'worker-metrics'].sort(),
      );
      expect(withMetrics.filter((service) => !selects(service))).toEqual([]);
      expect(monitor.spec.endpoints).toEqual([
        expect.objectContaining({ port: 'metrics', path: '/metrics' }),
      ]);
      // deploy/prometheus/alerts.yml: StsServiceDown reads up{job=~"sts-.+"}.
      expect(monitor.spec.endpoints[0].relabelings).toContainEqual(
        expect.objectContaining({
          sourceLabels: ['__meta_kubernetes_service_label_app_kubernetes_io_name'],
          targetLabel: 'job',
          replacement: 'sts-$1',
        }),
      );
    });
  });

  // overlays/live-egress (issue 61): three egress addresses, one plan for every reader, and
  // the services that bind to them on the node pool that holds them.
  (hasKubectl ? describe : describe.skip)('the live-egress overlay', () => {
    const all = hasKubectl ? documents(render('overlays/live-egress')) : [];
    const ofKind = (kind: string) => all.filter((doc) => doc.kind === kind);
    const podOf = (name: string) =>
      ofKind('Deployment').find((doc) => doc.metadata.name === name)?.spec.template.spec;
    const envOf = (name: string, variable: string) =>
      podOf(name).containers[0].env.find((entry: any) => entry.name === variable);
    const planMap = ofKind('ConfigMap').find((doc) =>
      doc.metadata.name.startsWith('sts-egress-plan-'),
    );
    const binders = ['gateway', 'worker'];

    it('lists three egress addresses in a plan the services would boot with', () => {
      const plan = parseEgressPlan(JSON.parse(planMap.data['egress-plan.json']));
      expect(plan.egresses.map((egress) => egress.id)).toEqual(['a', 'b', 'c']);
      // Documentation space (RFC 5737) in the example, never a real address.
      const documentation = new BlockList();
      documentation.addSubnet('203.0.113.0', 24, 'ipv4');
      for (const egress of plan.egresses) {
        expect([egress.id, documentation.check(egress.bind ?? '', 'ipv4')]).toEqual([
          egress.id,
          true,
        ]);
      }
    });

    it('mounts the one plan file where EGRESS_PLAN_FILE says, in every service that reads it', () => {
      const readers = ofKind('Deployment')
        .filter((doc) => envOf(doc.metadata.name, 'EGRESS_PLAN_FILE') !== undefined)
        .map((doc) => doc.metadata.name)
        .sort();
      expect(readers).toEqual(['budget', 'gateway', 'worker']);
      for (const name of readers) {
        const pod = podOf(name);
        const volume = pod.volumes.find(
          (item: any) => item.configMap?.name === planMap.metadata.name,
        );
        const mount = pod.containers[0].volumeMounts.find(
          (item: any) => item.name === volume?.name,
        );
        expect([name, envOf(name, 'EGRESS_PLAN_FILE').value]).toEqual([
          name,
          `${mount?.mountPath}/egress-plan.json`,
        ]);
      }
    });

    it('pins the workers and the gateways to the egress pool, in the node network, listening on the node only', () => {
      for (const name of binders) {
        const pod = podOf(name);
        expect([name, pod.nodeSelector]).toEqual([name, { 'sts.io/egress-pool': 'venues' }]);
        expect([name, pod.hostNetwork, pod.dnsPolicy]).toEqual([
          name,
          true,
          'ClusterFirstWithHostNet',
        ]);
        expect([name, pod.tolerations]).toEqual([
          name,
          [{ key: 'sts.io/egress-pool', operator: 'Equal', value: 'venues', effect: 'NoSchedule' }],
        ]);
        // On the node's primary address, never on the egress addresses the venues see.
        const hosts = name === 'gateway' ? ['GATEWAY_HOST', 'METRICS_HOST'] : ['METRICS_HOST'];
        for (const variable of hosts) {
          expect([name, variable, envOf(name, variable)?.valueFrom?.fieldRef]).toEqual([
            name,
            variable,
            { fieldPath: 'status.podIP' },
          ]);
        }
      }
      // The budget binds nothing, the notifier reaches no venue: neither needs the pool.
      for (const name of ['budget', 'notifier']) {
        expect([name, podOf(name).hostNetwork, podOf(name).nodeSelector]).toEqual([
          name,
          undefined,
          undefined,
        ]);
      }
    });

    it("admits the pool's nodes to NATS: pods in the node network match no podSelector", () => {
      const policy = ofKind('NetworkPolicy').find((doc) => doc.metadata.name === 'nats-from-fleet');
      const fromNodes = policy.spec.ingress.filter(
        (rule: any) =>
          rule.ports.some((port: any) => port.port === 4222) &&
          rule.from.some((peer: any) => peer.ipBlock?.cidr),
      );
      expect(fromNodes).toHaveLength(1);
    });
  });
});
