#!/usr/bin/env node
// Validates Kubernetes manifests against the Kubernetes API's JSON schemas
// (the kubernetes-models package: its schemas are generated from the API's
// OpenAPI, 1.27: types, required fields, formats and enums; an unknown field
// is not refused, the structure checks of e2e/deploy/k8s-manifests.int.spec.ts
// cover the fields we rely on). Reads a YAML stream (e.g.
// `kubectl kustomize deploy/k8s/overlays/paper`) from stdin or from the
// files named; prints one line per document and exits 1 if any is invalid.
// Custom resources the package does not know (the Prometheus Operator's
// ServiceMonitor) are checked against schemas of their own below.
//   kubectl kustomize deploy/k8s/overlays/live | node tools/validate-k8s.mjs
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';

/**
 * The fields of monitoring.coreos.com/v1 ServiceMonitor we use, as the
 * operator's CRD declares them (types, enums, required; its duration
 * pattern), unknown fields refused: the CRD would silently prune a misspelt
 * one, and a scrape setting pruned away is a target never scraped.
 */
const DURATION = {
  type: 'string',
  pattern:
    '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$',
};
const LABEL_SELECTOR = {
  type: 'object',
  additionalProperties: false,
  properties: {
    matchLabels: { type: 'object', additionalProperties: { type: 'string' } },
    matchExpressions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'operator'],
        properties: {
          key: { type: 'string' },
          operator: { enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] },
          values: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
};
const RELABELING = {
  type: 'object',
  additionalProperties: false,
  properties: {
    sourceLabels: { type: 'array', items: { type: 'string', pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$' } },
    separator: { type: 'string' },
    targetLabel: { type: 'string' },
    regex: { type: 'string' },
    modulus: { type: 'integer', minimum: 0 },
    replacement: { type: 'string' },
    action: {
      enum: [
        'replace',
        'Replace',
        'keep',
        'Keep',
        'drop',
        'Drop',
        'hashmod',
        'HashMod',
        'labelmap',
        'LabelMap',
        'labeldrop',
        'LabelDrop',
        'labelkeep',
        'LabelKeep',
        'lowercase',
        'Lowercase',
        'uppercase',
        'Uppercase',
        'keepequal',
        'KeepEqual',
        'dropequal',
        'DropEqual',
      ],
    },
  },
};
const SERVICE_MONITOR = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    metadata: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1 } },
    },
    spec: {
      type: 'object',
      additionalProperties: false,
      required: ['selector', 'endpoints'],
      properties: {
        jobLabel: { type: 'string' },
        selector: LABEL_SELECTOR,
        namespaceSelector: {
          type: 'object',
          additionalProperties: false,
          properties: {
            any: { type: 'boolean' },
            matchNames: { type: 'array', items: { type: 'string' } },
          },
        },
        endpoints: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            additionalProperties: false,
            // A port by the Service's port name, or a target port: else nothing is scraped.
            anyOf: [{ required: ['port'] }, { required: ['targetPort'] }],
            properties: {
              port: { type: 'string', minLength: 1 },
              targetPort: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
              path: { type: 'string', pattern: '^/' },
              scheme: { enum: ['http', 'https'] },
              interval: DURATION,
              scrapeTimeout: DURATION,
              honorLabels: { type: 'boolean' },
              relabelings: { type: 'array', items: RELABELING },
              metricRelabelings: { type: 'array', items: RELABELING },
            },
          },
        },
      },
    },
  },
};
const ajv = new Ajv({ allErrors: true });
const CUSTOM_RESOURCES = {
  'monitoring.coreos.com/v1 ServiceMonitor': ajv.compile(SERVICE_MONITOR),
};

/** Validates a custom resource by its own schema; throws the first problems found. */
function validateCustom(check, manifest) {
  if (!check(manifest)) {
    throw new Error(
      check.errors.map((error) => `${error.instancePath || '/'} ${error.message}`).join('; '),
    );
  }
}

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
    const custom = CUSTOM_RESOURCES[`${apiVersion} ${kind}`];
    if (custom) {
      validateCustom(custom, manifest);
      console.log(`valid   ${name}`);
      continue;
    }
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
