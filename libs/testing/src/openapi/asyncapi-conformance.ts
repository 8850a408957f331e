import { readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** The AsyncAPI schema of a server frame, chosen by its `type` (and `event`). */
function schemaNameOf(frame: Record<string, unknown>): string | undefined {
  switch (frame['type']) {
    case 'event':
      return frame['event'] === 'maintenance' ? 'MaintenanceEvent' : 'TradeLifecycleEvent';
    case 'fill':
      return 'TradeFillEvent';
    case 'authenticated':
      return 'Authenticated';
    case 'subscribed':
      return 'Subscribed';
    case 'unsubscribed':
      return 'Unsubscribed';
    case 'pong':
      return 'Pong';
    case 'error':
      return 'Error';
    default:
      return undefined;
  }
}

/**
 * Checks the notifier's server frames against the AsyncAPI document
 * (apps/gateway/asyncapi.json) with ajv: every frame a spec receives must be
 * one of the described messages and match its payload schema.
 */
export class AsyncApiConformance {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(file: string) {
    const document = JSON.parse(readFileSync(file, 'utf8')) as {
      components: { schemas: Record<string, object> };
    };
    // strict off: the document's own keywords (asyncapi, info, channels) sit beside the schemas.
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    ajv.addSchema(document, 'asyncapi');
    for (const name of Object.keys(document.components.schemas)) {
      this.validators.set(name, ajv.getSchema(`asyncapi#/components/schemas/${name}`)!);
    }
  }

  problemsOf(frame: Record<string, unknown>): string[] {
    const name = schemaNameOf(frame);
    const validate = name ? this.validators.get(name) : undefined;
    if (!validate) {
      return [`frame of type ${String(frame['type'])} is not described`];
    }
    if (validate(frame)) {
      return [];
    }
    return (validate.errors ?? []).map(
      (error) => `${name}${error.instancePath} ${error.message} (${error.schemaPath})`,
    );
  }

  assert(frame: Record<string, unknown>): void {
    const problems = this.problemsOf(frame);
    if (problems.length > 0) {
      throw new Error(`frame breaks the AsyncAPI document:\n${problems.join('\n')}`);
    }
  }
}
