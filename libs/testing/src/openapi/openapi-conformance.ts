import { readFileSync } from 'node:fs';
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import OpenAPIBackend, { ValidationContext, type Document, type Operation } from 'openapi-backend';

export interface ObservedResponse {
  method: string;
  /** Path and query as sent, e.g. `/api/v1/trades/abc?limit=5`. */
  url: string;
  status: number;
  headers: Headers;
  body: unknown;
}

/** Operations matched by method and path remembered at most this many at once (ids make paths many). */
const MATCHES_REMEMBERED = 10_000;

/**
 * `ajv` compiling each schema once per document, by its text. openapi-backend
 * makes a new Ajv for every operation and compiles, on the operation's first
 * answer, a validator for every status it documents, most of them the same
 * error schema, each deep-copied first (so Ajv's own cache, by object, never
 * meets one again): a spec that met a dozen operations compiled the error
 * schema dozens of times, about 0.5 s of CPU in every spec file that drives
 * the gateway (measured: 12 operations' first answers 0.7-1.2 s, with one Ajv
 * and this 0.3-0.6 s). A schema of the same text compiles to the same
 * validator, and the document names no `$id`, so one Ajv holds every
 * operation's; every answer is still validated.
 */
function compilingOnce(ajv: Ajv, compiled: Map<string, ValidateFunction>): Ajv {
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: object) => {
    const text = JSON.stringify(schema);
    let validate = compiled.get(text);
    if (!validate) {
      validate = compile(schema);
      compiled.set(text, validate);
    }
    return validate;
  }) as Ajv['compile'];
  return ajv;
}

type ResponseObject = {
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, unknown>;
};

/**
 * Checks answers against an OpenAPI document: the operation (openapi-backend's
 * router), a status the operation documents, the body against that status'
 * schema and its headers (openapi-backend's ajv validators). Requests that name
 * no operation (probes, the documents themselves) are not checked.
 */
export class OpenApiConformance {
  /**
   * The operation each method and path matched. openapi-backend's router
   * flattens the document's operations (lodash) and tries every path
   * template as a new RegExp on every match, and a harness matches every
   * answer of a spec (polls included): that was most of this check's time,
   * several CPU-seconds in a long spec. The match reads only the method and
   * the path, so a remembered one is the same.
   */
  private readonly matches = new Map<string, Operation | undefined>();

  private constructor(private readonly api: OpenAPIBackend) {}

  static async load(file: string): Promise<OpenApiConformance> {
    const definition = JSON.parse(readFileSync(file, 'utf8')) as Document;
    const compiled = new Map<string, ValidateFunction>();
    let responseAjv: Ajv | undefined;
    // quick: openapi-backend's own check of the definition knows OpenAPI 3.0 only; the
    // document is checked by Redocly (apps/gateway/test/api-description.e2e.spec.ts).
    const api = new OpenAPIBackend({
      definition,
      quick: true,
      validate: true,
      strict: true,
      // Fastify routes `/api/v1/trades/` apart from `/api/v1/trades`.
      ignoreTrailingSlashes: false,
      customizeAjv: (ajv, _options, context) =>
        context === ValidationContext.Response
          ? (responseAjv ??= compilingOnce(addFormats(ajv), compiled))
          : addFormats(ajv),
    });
    await api.init();
    // The document does not change once loaded: its operations flattened once (the router
    // and the validator look operations up through this).
    const operations = api.router.getOperations();
    api.router.getOperations = () => operations;
    return new OpenApiConformance(api);
  }

  /** The problems with one answer; empty when it conforms (or names no operation). */
  problemsOf(response: ObservedResponse): string[] {
    // Split by hand: URL() would resolve `.` segments the server's router sees as they are.
    const [pathname = '', search = ''] = response.url.split(/\?(.*)/s, 2);
    const operation = this.operationOf(response.method.toLowerCase(), pathname, search);
    if (!operation) {
      return [];
    }
    const where = `${response.method} ${pathname} answered ${response.status}`;
    const described = (operation.responses as Record<string, ResponseObject> | undefined)?.[
      String(response.status)
    ];
    if (!described) {
      return [`${where}: status not described for ${operation.operationId}`];
    }
    const problems: string[] = [];
    for (const [name, header] of Object.entries(described.headers ?? {})) {
      if (header.required && !response.headers.has(name)) {
        problems.push(`${where}: no ${name}`);
      }
    }
    if (described.content && response.body === undefined) {
      problems.push(`${where}: no body`);
    }
    if (described.content && response.body !== undefined) {
      const result = this.api.validator.validateResponse(
        response.body,
        operation as Operation,
        response.status,
      );
      for (const error of result.errors ?? []) {
        problems.push(`${where}: body${error.instancePath} ${error.message} (${error.schemaPath})`);
      }
    }
    return problems;
  }

  private operationOf(method: string, path: string, search: string): Operation | undefined {
    const key = `${method} ${path}`;
    if (this.matches.has(key)) {
      return this.matches.get(key);
    }
    const query = Object.fromEntries(new URLSearchParams(search));
    const operation = this.api.router.matchOperation({ method, path, headers: {}, query });
    if (this.matches.size >= MATCHES_REMEMBERED) {
      this.matches.clear();
    }
    this.matches.set(key, operation);
    return operation;
  }

  /** Throws, naming every problem, when the answer does not conform. */
  assert(response: ObservedResponse): void {
    const problems = this.problemsOf(response);
    if (problems.length > 0) {
      throw new Error(`response breaks the OpenAPI document:\n${problems.join('\n')}`);
    }
  }
}
