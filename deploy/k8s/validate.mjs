#!/usr/bin/env node
// Validates Kubernetes manifests strictly, offline: every document against its
// kind's schema (types, required fields, formats, enums) and every field
// refused that the schema does not declare, as `kubeconform -strict` does (a
// misspelt `readinesProbe` is an error, not a field the API server drops).
// Reads a YAML stream from stdin or from the files named; prints one line per
// document and exits 1 if any is invalid:
//   kubectl kustomize deploy/k8s/overlays/live | node deploy/k8s/validate.mjs
//
// Schemas:
// - the Kubernetes API's own kinds: the validators of the `kubernetes-models`
//   package (5.1.0, pinned in package.json; generated from the OpenAPI of
//   Kubernetes v1.36), nothing vendored;
// - custom resources: schemas/<group>_<version>_<Kind>.json, the fields of the
//   CRDs we use as the CRDs declare them (deploy/k8s/README.md, Validation);
//   any other custom resource is refused.
import { readdirSync, readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';

const SCHEMAS = new URL('./schemas/', import.meta.url);

/** The custom resources we know, by `<apiVersion> <kind>` (each schema's `const`s). */
const ajv = new Ajv({ allErrors: true });
const CUSTOM_RESOURCES = new Map(
  readdirSync(SCHEMAS)
    .filter((file) => file.endsWith('.json'))
    .map((file) => {
      const schema = JSON.parse(readFileSync(new URL(file, SCHEMAS), 'utf8'));
      const { apiVersion, kind } = schema.properties;
      return [`${apiVersion.const} ${kind.const}`, ajv.compile(schema)];
    }),
);

/**
 * The validator kubernetes-models compiled for an API kind: `apps/v1` `Deployment`
 * is `io.k8s.api.apps.v1.Deployment` (the group's first label, `v1` alone the core).
 * Only the API's own groups (no dot, or `*.k8s.io`) are looked up there.
 */
async function apiValidator(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['core', apiVersion];
  const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);
  const name = `IoK8sApi${capital(group.split('.')[0])}${capital(version)}${kind}`;
  const ofTheApi = !group.includes('.') || group.endsWith('.k8s.io');
  const module = ofTheApi
    ? await import(`kubernetes-models/_schemas/${name}`).catch(() => undefined)
    : undefined;
  if (typeof module?.validate !== 'function') {
    throw new Error(
      `no schema for ${kind} in ${apiVersion} (a custom resource: deploy/k8s/schemas)`,
    );
  }
  return module.validate;
}

/**
 * Runs a compiled validator (ajv's code, as kubernetes-models ships it) on a manifest
 * and finds the fields its schema does not declare. That code reads each property its
 * schema declares (`data.x !== undefined`) and enumerates an object's keys only where
 * any key is allowed (labels, annotations, a ConfigMap's data); the manifest is handed
 * over wrapped so that both are recorded. In an object where the schema read some
 * properties and enumerated none, a key it never read is one it does not declare; an
 * object it read nothing of is free-form (`type: object` alone).
 */
function validateStrictly(validate, manifest) {
  const seen = new Map();
  const wrap = (value) => {
    if (value === null || typeof value !== 'object') {
      return value;
    }
    if (!seen.has(value)) {
      seen.set(value, { read: new Set(), anyKey: false });
    }
    const record = seen.get(value);
    return new Proxy(value, {
      get(target, key) {
        if (typeof key === 'string') {
          record.read.add(key);
        }
        return wrap(Reflect.get(target, key));
      },
      ownKeys(target) {
        record.anyKey = true;
        return Reflect.ownKeys(target);
      },
    });
  };
  const problems = validate(wrap(manifest)) ? [] : validate.errors.map(describeError);
  const visit = (value, path) => {
    if (value === null || typeof value !== 'object') {
      return;
    }
    const record = Array.isArray(value) ? undefined : seen.get(value);
    const declares = (key) =>
      !record || record.anyKey || record.read.size === 0 || record.read.has(key);
    for (const [key, child] of Object.entries(value)) {
      if (declares(key)) {
        visit(child, `${path}/${key}`);
      } else {
        problems.push(`${path}/${key} is not a field of the schema`);
      }
    }
  };
  visit(manifest, '');
  return problems;
}

/** One of ajv's errors in words, the same for both kinds of schema. */
function describeError({ instancePath, keyword, params, message }) {
  if (keyword === 'additionalProperties') {
    return `${instancePath}/${params.additionalProperty} is not a field of the schema`;
  }
  const words = {
    required: () => `must have required property ${params.missingProperty}`,
    type: () => `must be ${params.type}`,
    enum: () => `must be one of ${JSON.stringify(params.allowedValues)}`,
    const: () => `must be ${JSON.stringify(params.allowedValue)}`,
    format: () => `must match format ${params.format}`,
    pattern: () => `must match pattern ${params.pattern}`,
  };
  // kubernetes-models' compiled code carries no messages; ajv's own does.
  const text = words[keyword]?.() ?? message ?? `${keyword} ${JSON.stringify(params)}`;
  return `${instancePath || '/'} ${text}`;
}

/** The problems of one document, none when it is valid. */
async function check(manifest) {
  const { apiVersion, kind } = manifest;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    return ['apiVersion and kind are required'];
  }
  const custom = CUSTOM_RESOURCES.get(`${apiVersion} ${kind}`);
  if (custom) {
    return custom(manifest) ? [] : custom.errors.map(describeError);
  }
  return validateStrictly(await apiValidator(apiVersion, kind), manifest);
}

const readStdin = async () => {
  const chunks = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk);
  }
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
    console.log(`INVALID ${source}: YAML: ${document.errors.map((e) => e.message).join('; ')}`);
    continue;
  }
  const manifest = document.toJS();
  if (manifest === null || manifest === undefined) {
    continue;
  }
  const name = `${manifest.kind ?? '?'}/${manifest.metadata?.name ?? '?'}`;
  const problems = await check(manifest).catch((error) => [error.message]);
  if (problems.length > 0) {
    invalid += 1;
  }
  console.log(
    problems.length === 0 ? `valid   ${name}` : `INVALID ${name}: ${problems.join('; ')}`,
  );
}
console.log(`${documents.length - invalid} valid, ${invalid} invalid`);
process.exit(invalid === 0 && documents.length > 0 ? 0 : 1);
