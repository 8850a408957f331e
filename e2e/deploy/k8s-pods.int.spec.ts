import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  K8S,
  OVERLAYS,
  containersOf,
  documents,
  hasKubectl,
  imageName,
  podsOf,
  render,
} from './k8s-render';

/**
 * deploy/k8s as kubectl kustomize renders it, pod by pod: each overlay runs the image
 * and tag its `images:` says, in every container and init container (issue 59: the base
 * renamed the image, so the overlays' entries matched nothing and every Deployment ran
 * `:latest`), and no pod holds a service-account token it has no use for.
 */
type ImageEntry = { name: string; newName?: string; newTag?: string; digest?: string };

/** The image an `images:` entry of a kustomization gives the containers it matches. */
const imageOf = (entry: ImageEntry) =>
  `${entry.newName ?? entry.name}${entry.digest ? `@${entry.digest}` : `:${entry.newTag}`}`;

const rendered = hasKubectl ? describe : describe.skip;

describe('Kubernetes pods as rendered', () => {
  rendered('base', () => {
    const all = hasKubectl ? documents(render('base')) : [];

    it('names every container of the fleet `spread-trading`, the image the overlays set', () => {
      // A rename in the base (an `images:` entry there) would leave the overlays' entries,
      // which match the name `spread-trading`, matching nothing.
      const containers = containersOf(all);
      expect(containers.length).toBeGreaterThanOrEqual(4);
      expect(containers.map(({ where, image }) => [where, image])).toEqual(
        containers.map(({ where }) => [where, 'spread-trading']),
      );
    });
  });

  rendered.each(['overlays/paper', 'overlays/live'])('%s', (path) => {
    const all = hasKubectl ? documents(render(path)) : [];
    const containers = containersOf(all);
    const entries: ImageEntry[] =
      parse(readFileSync(join(K8S, path, 'kustomization.yaml'), 'utf8')).images ?? [];

    it("runs every container of the fleet on the overlay's image and tag", () => {
      const fleet = entries.find((entry) => entry.name === 'spread-trading');
      expect(fleet?.newName).toMatch(/\/spread-trading$/);
      const deployments = containers.filter(({ where }) => where.startsWith('Deployment/'));
      expect(deployments.length).toBeGreaterThanOrEqual(4);
      expect(deployments.map(({ where, image }) => [where, image])).toEqual(
        deployments.map(({ where }) => [where, imageOf(fleet as ImageEntry)]),
      );
    });

    it('gives each `images:` entry effect: whatever it matches runs its name and tag', () => {
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) {
        const names = [entry.name, entry.newName ?? entry.name];
        const matched = containers.filter(({ image }) => names.includes(imageName(image)));
        // An entry that matches no container sets nothing: a name the base no longer uses.
        expect([entry.name, matched.length > 0]).toEqual([entry.name, true]);
        expect(matched.map(({ where, image }) => [where, image])).toEqual(
          matched.map(({ where }) => [where, imageOf(entry)]),
        );
      }
    });

    it('pins every image, init containers included, to a tag or a digest other than latest', () => {
      for (const { where, image } of containers) {
        const tag = image.includes('@') ? 'a digest' : image.slice(imageName(image).length + 1);
        expect([where, tag === '' || tag === 'latest' ? `unpinned ${image}` : 'pinned']).toEqual([
          where,
          'pinned',
        ]);
      }
    });
  });

  rendered.each(OVERLAYS)('%s', (path) => {
    const pods = hasKubectl ? podsOf(documents(render(path))) : [];

    it('mounts no service-account token: no pod calls the Kubernetes API', () => {
      expect(pods.length).toBeGreaterThanOrEqual(4);
      // None of the fleet, the simulator or NATS reads the API (no client, no
      // serviceAccountName): a token in the pod would only be there to be stolen.
      expect(pods.map(({ owner, pod }) => [owner, pod.automountServiceAccountToken])).toEqual(
        pods.map(({ owner }) => [owner, false]),
      );
      expect(pods.filter(({ pod }) => pod.serviceAccountName !== undefined)).toEqual([]);
    });
  });
});
