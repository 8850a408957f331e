import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * What the Kubernetes manifest specs share: where deploy/k8s is, its renderings by
 * `kubectl kustomize`, the strict validator (deploy/k8s/validate.mjs) and the pods
 * of a rendering.
 */
export const ROOT = resolve(__dirname, '../..');
export const K8S = join(ROOT, 'deploy/k8s');
export const OVERLAYS = ['base', 'overlays/paper', 'overlays/live', 'overlays/live-egress'];

// kubectl is not a Debian package of this release (docs/operations.md); without it the
// rendered checks are skipped, the file checks still run.
export const hasKubectl =
  spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

/** deploy/k8s/validate.mjs on a YAML stream: one line per document, exit 1 if any is invalid. */
export const validate = (yamlText: string) =>
  spawnSync(process.execPath, [join(K8S, 'validate.mjs')], {
    input: yamlText,
    encoding: 'utf8',
    cwd: ROOT,
  });

export const render = (path: string): string => {
  const result = spawnSync('kubectl', ['kustomize', join(K8S, path)], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`kubectl kustomize ${path}: ${result.stderr}`);
  }
  return result.stdout;
};

export const documents = (yamlText: string): any[] =>
  parseAllDocuments(yamlText)
    .map((document) => document.toJS())
    .filter(Boolean);

/** The pod template of every workload in a rendering, named `<Kind>/<name>`. */
export const podsOf = (all: any[]): { owner: string; pod: any }[] =>
  all.flatMap((doc) => {
    const owner = `${doc.kind}/${doc.metadata.name}`;
    switch (doc.kind) {
      case 'Pod':
        return [{ owner, pod: doc.spec }];
      case 'CronJob':
        return [{ owner, pod: doc.spec.jobTemplate.spec.template.spec }];
      case 'Deployment':
      case 'StatefulSet':
      case 'DaemonSet':
      case 'ReplicaSet':
      case 'Job':
        return [{ owner, pod: doc.spec.template.spec }];
      default:
        return [];
    }
  });

/** Every container and init container of a rendering, named `<Kind>/<name>/<container>`. */
export const containersOf = (all: any[]): { where: string; image: string }[] =>
  podsOf(all).flatMap(({ owner, pod }) =>
    [...(pod.initContainers ?? []), ...pod.containers].map((container: any) => ({
      where: `${owner}/${container.name}`,
      image: container.image,
    })),
  );

/** An image reference without its tag or digest: `registry/name:tag@sha256:...` -> `registry/name`. */
export const imageName = (image: string): string => {
  const [named] = image.split('@');
  const colon = named.lastIndexOf(':');
  return colon > named.lastIndexOf('/') ? named.slice(0, colon) : named;
};
