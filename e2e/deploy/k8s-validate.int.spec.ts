import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { K8S, validate } from './k8s-render';

/**
 * deploy/k8s/validate.mjs bites: what the API server would refuse is refused, and so is
 * what it would accept and silently drop, a field no schema declares (a misspelt
 * `readinesProbe` deploys a pod with no readiness probe at all). Each probe mends a
 * checked-in manifest and expects that one document, at that path, to be refused.
 */
const file = (path: string) => readFileSync(join(K8S, path), 'utf8');

describe('deploy/k8s/validate.mjs', () => {
  it('refuses a manifest the API would refuse: a required field missing', () => {
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

  it.each([
    // [file, text, misspelt as, the document refused, the path refused]
    [
      'base/gateway.yaml',
      'readinessProbe:',
      'readinesProbe:',
      'Deployment/gateway',
      '/spec/template/spec/containers/0/readinesProbe',
    ],
    [
      'base/worker.yaml',
      'path: /livez',
      'paht: /livez',
      'Deployment/worker',
      '/spec/template/spec/containers/0/startupProbe/httpGet/paht',
    ],
    [
      'base/notifier.yaml',
      'automountServiceAccountToken:',
      'automountServiceAcountToken:',
      'Deployment/notifier',
      '/spec/template/spec/automountServiceAcountToken',
    ],
    [
      'base/budget.yaml',
      'metadata: { name: budget-metrics, labels:',
      'metadata: { name: budget-metrics, lables:',
      'Service/budget-metrics',
      '/metadata/lables',
    ],
    [
      'base/worker.yaml',
      'maxReplicas:',
      'maxReplica:',
      'HorizontalPodAutoscaler/worker',
      '/spec/maxReplica',
    ],
    [
      'base/network-policies.yaml',
      'policyTypes:',
      'policyType:',
      'NetworkPolicy/default-deny-ingress',
      '/spec/policyType',
    ],
    ['base/config.yaml', '\ndata:', '\ndate:', 'ConfigMap/sts-config', '/date'],
    [
      'components/nats/nats.yaml',
      'serviceName:',
      'servicName:',
      'StatefulSet/nats',
      '/spec/servicName',
    ],
    [
      'components/nats/nats.yaml',
      'maxUnavailable:',
      'maxUnavailabe:',
      'PodDisruptionBudget/nats',
      '/spec/maxUnavailabe',
    ],
    [
      'components/monitoring/service-monitor.yaml',
      'scrapeTimeout:',
      'scrapeTimout:',
      'ServiceMonitor/spread-trading',
      '/spec/endpoints/0/scrapeTimout',
    ],
    [
      'base/edge.yaml',
      'certificateRefs:',
      'certificateRef:',
      'Gateway/sts',
      '/spec/listeners/0/tls/certificateRef',
    ],
    ['base/edge.yaml', 'backendRefs:', 'backendRef:', 'HTTPRoute/sts', '/spec/rules/0/backendRef'],
  ])('refuses a misspelt field: %s, %j as %j', (path, text, misspelt, name, at) => {
    expect(file(path)).toContain(text);
    const result = validate(file(path).replace(text, misspelt));
    const refused = result.stdout.split('\n').filter((line) => line.startsWith('INVALID'));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain(`INVALID ${name}: `);
    // A required field misspelt is missing too; the misspelling itself is named either way.
    expect(refused[0]).toContain(`${at} is not a field of the schema`);
    expect(result.status).toBe(1);
  });

  it('accepts every field the schema declares, those the manifests do not use too', () => {
    const result = validate(
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: { name: rich, annotations: { any.example/key: v }, labels: { a: b } }',
        'spec:',
        '  selector: { matchLabels: { a: b } }',
        '  revisionHistoryLimit: 3',
        '  template:',
        '    metadata: { labels: { a: b } }',
        '    spec:',
        '      automountServiceAccountToken: false',
        '      dnsConfig: { options: [{ name: ndots, value: "2" }] }',
        '      tolerations: [{ key: k, operator: Exists, effect: NoSchedule }]',
        '      initContainers:',
        '        - { name: sidecar, image: b:1, restartPolicy: Always }',
        '      containers:',
        '        - name: a',
        '          image: b:1',
        '          env: [{ name: X, valueFrom: { resourceFieldRef: { resource: limits.cpu } } }]',
        '          readinessProbe: { grpc: { port: 9000 }, successThreshold: 1 }',
        '          resources: { limits: { cpu: 500m, memory: 1Gi } }',
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: free-form }',
        'data: { ANY_KEY: any, another.key: value }',
      ].join('\n'),
    );
    expect(result.stdout).toBe(
      'valid   Deployment/rich\nvalid   ConfigMap/free-form\n2 valid, 0 invalid\n',
    );
    expect(result.status).toBe(0);
  });

  it("holds custom resources to their CRD's rules, and refuses one it has no schema for", () => {
    const edge = file('base/edge.yaml');
    // A Service backend without its port routes nowhere (the CRD's CEL rule).
    const portless = validate(edge.replace('{ name: notifier, port: 80 }', '{ name: notifier }'));
    expect(portless.stdout).toMatch(/INVALID HTTPRoute\/sts: .*must have required property port/);
    // An HTTPS listener with no certificate.
    const bare = validate(edge.replace(/^ {6}tls: .*\n/m, ''));
    expect(bare.stdout).toMatch(/INVALID Gateway\/sts: .*must have required property tls/);
    const unknown = validate(
      'apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata: { name: p }\nspec: {}\n',
    );
    expect(unknown.stdout).toContain('INVALID PodMonitor/p: no schema for PodMonitor');
    expect([portless.status, bare.status, unknown.status]).toEqual([1, 1, 1]);
  });
});
