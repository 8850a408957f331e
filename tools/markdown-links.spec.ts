import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The docs a newcomer reads: the root README, everything under docs/, each
// app's and lib's README and an app's own docs/. A relative link in them must name a file or
// folder of the repository (the part after `#` is not checked: headings are
// reworded more often than they are linked, and a renderer's slug rules vary).
const ROOT = resolve(__dirname, '..');

function markdownUnder(dir: string): string[] {
  if (!existsSync(dir)) {
    return [];
  }
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      return markdownUnder(path);
    }
    return name.endsWith('.md') ? [path] : [];
  });
}

function readmesOf(parent: string): string[] {
  return readdirSync(join(ROOT, parent))
    .map((name) => join(ROOT, parent, name, 'README.md'))
    .filter((path) => existsSync(path));
}

// An app's longer references sit beside its README (apps/venue-sim/docs/protocol.md).
function appDocs(): string[] {
  return readdirSync(join(ROOT, 'apps')).flatMap((name) =>
    markdownUnder(join(ROOT, 'apps', name, 'docs')),
  );
}

function docFiles(): string[] {
  return [
    join(ROOT, 'README.md'),
    ...markdownUnder(join(ROOT, 'docs')),
    ...readmesOf('apps'),
    ...appDocs(),
    ...readmesOf('libs'),
  ];
}

// Link targets outside fenced blocks and code spans, where `[a](b)` is code,
// not a link. Images count: a missing screenshot is a broken page too.
function relativeLinkTargets(markdown: string): string[] {
  const prose = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
  const targets = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1],
  );
  return targets.filter((target) => !/^([a-z][a-z0-9+.-]*:|#)/i.test(target));
}

function brokenLinks(file: string): string[] {
  return relativeLinkTargets(readFileSync(file, 'utf8'))
    .filter((target) => {
      const path = decodeURIComponent(target.replace(/[#?].*$/, ''));
      return !existsSync(resolve(dirname(file), path));
    })
    .map((target) => `${relative(ROOT, file)}: ${target}`);
}

describe('markdown links of the repository', () => {
  it('finds the docs it checks', () => {
    const files = docFiles().map((file) => relative(ROOT, file));
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/api.md',
        'apps/gateway/README.md',
        'libs/domain/README.md',
      ]),
    );
  });

  it('every relative link resolves to a file or folder', () => {
    expect(docFiles().flatMap(brokenLinks)).toEqual([]);
  });
});

describe('relativeLinkTargets', () => {
  it('takes relative links and images, leaving URLs, anchors and code', () => {
    const markdown = [
      'See [the API](docs/api.md#notes) and ![shot](./a.png "A").',
      '[web](https://example.com) [mail](mailto:a@b.c) [here](#runbooks)',
      'In code: `[not](a-link.md)`.',
      '```',
      '[also not](fenced.md)',
      '```',
      '[last](../other/README.md)',
    ].join('\n');
    expect(relativeLinkTargets(markdown)).toEqual([
      'docs/api.md#notes',
      './a.png',
      '../other/README.md',
    ]);
  });
});
