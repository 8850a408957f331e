import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

interface WebhooksDocument {
  components: { schemas: Record<string, unknown> };
  webhooks?: Record<
    string,
    { post: { requestBody: { content: { 'application/json': { schema: unknown } } } } }
  >;
}

const DOCUMENT_ID = 'https://sts.local/openapi.json';

/**
 * Checks webhook bodies against an OpenAPI 3.1 document's `webhooks`: the
 * body a POST of each event type carries (JSON Schema 2020-12, with the
 * document's components). What the notifier sends is held to what the
 * gateway's API description promises.
 */
export class WebhookConformance {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(file: string) {
    const document = JSON.parse(readFileSync(file, 'utf8')) as WebhooksDocument;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
    for (const [type, item] of Object.entries(document.webhooks ?? {})) {
      const schema = item.post.requestBody.content['application/json'].schema as {
        $ref?: string;
      };
      const rooted = schema.$ref ? { $ref: `${DOCUMENT_ID}${schema.$ref}` } : schema;
      this.validators.set(type, ajv.compile(rooted as object));
    }
  }

  /** The event types the document describes. */
  get types(): string[] {
    return [...this.validators.keys()];
  }

  /** The problems with one body of `type`; empty when it conforms. */
  problemsOf(type: string, body: unknown): string[] {
    const validate = this.validators.get(type);
    if (!validate) {
      return [`webhook ${type}: not described in the document`];
    }
    if (validate(body)) {
      return [];
    }
    return (validate.errors ?? []).map(
      (error) => `webhook ${type}: body${error.instancePath} ${error.message ?? 'is invalid'}`,
    );
  }
}
