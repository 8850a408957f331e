import { readFileSync } from 'node:fs';
import addFormats from 'ajv-formats';
import OpenAPIBackend, { type Document, type Operation } from 'openapi-backend';

export interface ObservedResponse {
  method: string;
  /** Path and query as sent, e.g. `/api/v1/trades/abc?limit=5`. */
  url: string;
  status: number;
  headers: Headers;
  body: unknown;
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
  private constructor(private readonly api: OpenAPIBackend) {}

  static async load(file: string): Promise<OpenApiConformance> {
    const definition = JSON.parse(readFileSync(file, 'utf8')) as Document;
    // quick: openapi-backend's own check of the definition knows OpenAPI 3.0 only; the
    // document is checked by Redocly (apps/gateway/test/api-description.e2e.spec.ts).
    const api = new OpenAPIBackend({
      definition,
      quick: true,
      validate: true,
      strict: true,
      // Fastify routes `/api/v1/trades/` apart from `/api/v1/trades`.
      ignoreTrailingSlashes: false,
      customizeAjv: (ajv) => addFormats(ajv),
    });
    await api.init();
    return new OpenApiConformance(api);
  }

  /** The problems with one answer; empty when it conforms (or names no operation). */
  problemsOf(response: ObservedResponse): string[] {
    // Split by hand: URL() would resolve `.` segments the server's router sees as they are.
    const [pathname = '', search = ''] = response.url.split(/\?(.*)/s, 2);
    const query = Object.fromEntries(new URLSearchParams(search));
    const operation = this.api.router.matchOperation({
      method: response.method.toLowerCase(),
      path: pathname,
      headers: {},
      query,
    });
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

  /** Throws, naming every problem, when the answer does not conform. */
  assert(response: ObservedResponse): void {
    const problems = this.problemsOf(response);
    if (problems.length > 0) {
      throw new Error(`response breaks the OpenAPI document:\n${problems.join('\n')}`);
    }
  }
}
