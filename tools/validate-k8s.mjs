#!/usr/bin/env node
// Validates Kubernetes manifests against the Kubernetes API's JSON schemas
// (the kubernetes-models package: its schemas are generated from the API's
// OpenAPI, 1.27: types, required fields, formats and enums; an unknown field
// is not refused, the structure checks of e2e/deploy/k8s-manifests.int.spec.ts
// cover the fields we rely on). Reads a YAML stream (e.g.
// `kubectl kustomize deploy/k8s/overlays/paper`) from stdin or from the
// files named; prints one line per document and exits 1 if any is invalid.
//   kubectl kustomize deploy/k8s/overlays/paper | node tools/validate-k8s.mjs
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

const readStdin = async () => {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};
const inputs =
  process.argv.length > 2
    ? process.argv.slice(2).map((source) => ({ source, text: readFileSync(source, 'utf8') }))
    : [{ source: 'stdin', text: await readStdin() }];
const documents = inputs.flatMap(({ source, text }) =>
  parseAllDocuments(text).map((document) => ({ source, document })),
);

let invalid = 0;
for (const { source, document } of documents) {
  if (document.errors.length > 0) {
    invalid += 1;
    console.log(
      `INVALID ${source}: YAML: ${document.errors.map((error) => error.message).join('; ')}`,
    );
    continue;
  }
  const manifest = document.toJS();
  if (manifest === null || manifest === undefined) continue;
  const name = `${manifest.kind ?? '?'}/${manifest.metadata?.name ?? '?'}`;
  try {
    const { apiVersion, kind } = manifest;
    if (typeof apiVersion !== 'string' || typeof kind !== 'string')
      throw new Error('apiVersion and kind are required');
    const module = await import(`kubernetes-models/${apiVersion}`).catch(() => {
      throw new Error(`unknown apiVersion ${apiVersion}`);
    });
    const Model = module[kind];
    if (typeof Model !== 'function') throw new Error(`unknown kind ${kind} in ${apiVersion}`);
    new Model(manifest).validate();
    console.log(`valid   ${name}`);
  } catch (error) {
    invalid += 1;
    console.log(`INVALID ${name}: ${error.message}`);
  }
}
console.log(`${documents.length - invalid} valid, ${invalid} invalid`);
process.exit(invalid === 0 && documents.length > 0 ? 0 : 1);
