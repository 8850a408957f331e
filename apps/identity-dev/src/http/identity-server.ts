import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '@sts/platform';
import type { IdentityDevSettings } from '../config/identity-dev.settings';
import { IdentityError } from '../identity-error';
import type { NonceBook } from '../siwe/nonce-book';
import type { SignIn } from '../siwe/sign-in';
import type { SessionTokens } from '../tokens/session-tokens';

const MAX_BODY_BYTES = 16 * 1024;

interface Reply {
  status: number;
  body: unknown;
}

type Route = (request: IncomingMessage, body: string) => Promise<Reply> | Reply;

export interface IdentityServerDeps {
  settings: IdentityDevSettings;
  nonces: NonceBook;
  signIn: SignIn;
  tokens: SessionTokens;
  logger: Logger;
}

/**
 * The provider's HTTP edge: the JWKS, the SIWE nonce / verify / refresh
 * routes, CORS for the allowed origins (the console calls us from the
 * gateway's origin), errors as the gateway shapes them: `{ error, code }`.
 */
export function createIdentityServer(deps: IdentityServerDeps): Server {
  const routes = routesOf(deps);
  return createServer((request, response) => {
    void handle(deps, routes, request, response);
  });
}

/** Path, then method, to the route that answers it. */
function routesOf(deps: IdentityServerDeps): Map<string, Map<string, Route>> {
  return new Map<string, Map<string, Route>>([
    [
      '/.well-known/jwks.json',
      new Map([['GET', (): Reply => ({ status: 200, body: deps.tokens.jwks() })]]),
    ],
    ['/livez', new Map([['GET', (): Reply => ({ status: 200, body: { status: 'ok' } })]])],
    ['/healthz', new Map([['GET', (): Reply => ({ status: 200, body: { status: 'ok' } })]])],
    [
      '/siwe/nonce',
      new Map([['POST', (): Reply => ({ status: 201, body: { nonce: deps.nonces.issue() } })]]),
    ],
    [
      '/siwe/verify',
      new Map([
        [
          'POST',
          async (request: IncomingMessage, body: string): Promise<Reply> => {
            const { message, signature } = signInBody(request, body);
            const session = await deps.signIn.verify(message, signature);
            deps.logger.info(
              { user_id: session.user_id, wallet_address: session.wallet_address },
              'signed in',
            );
            return { status: 201, body: session };
          },
        ],
      ]),
    ],
    [
      '/siwe/refresh',
      new Map([
        [
          'POST',
          async (request: IncomingMessage): Promise<Reply> => {
            const wallet = await deps.tokens.walletOf(bearerToken(request));
            return { status: 201, body: await deps.tokens.issue(wallet) };
          },
        ],
      ]),
    ],
  ]);
}

/** One request: CORS preflight, or the route's reply (a refusal as `{ error, code }`). */
async function handle(
  deps: IdentityServerDeps,
  routes: Map<string, Map<string, Route>>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const corsHeaders = cors(deps.settings, request);
  const path = (request.url ?? '/').split('?')[0];
  if (request.method === 'OPTIONS') {
    response.writeHead(204, corsHeaders).end();
    return;
  }
  let reply: Reply;
  try {
    const methods = routes.get(path);
    if (!methods) {
      throw new IdentityError(404, 'not_found', `no route ${path}`);
    }
    const route = methods.get(request.method ?? '');
    if (!route) {
      throw new IdentityError(405, 'method_not_allowed', `${path} takes ${[...methods.keys()]}`);
    }
    reply = await route(request, await readBody(request));
  } catch (error) {
    reply = refusal(error, deps.logger);
  }
  response
    .writeHead(reply.status, {
      ...corsHeaders,
      'content-type': 'application/json',
      'cache-control': 'no-store',
    })
    .end(JSON.stringify(reply.body));
}

function cors(settings: IdentityDevSettings, request: IncomingMessage): Record<string, string> {
  const origin = request.headers.origin;
  if (!origin || !settings.allowedOrigins.includes(origin)) {
    return { vary: 'Origin' };
  }
  return {
    vary: 'Origin',
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-max-age': '600',
  };
}

function signInBody(
  request: IncomingMessage,
  body: string,
): { message: string; signature: string } {
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    throw new IdentityError(415, 'unsupported_media_type', 'send application/json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new IdentityError(400, 'invalid_request', 'body is not JSON');
  }
  const fields = parsed as Record<string, unknown> | null;
  if (
    typeof fields !== 'object' ||
    fields === null ||
    Array.isArray(fields) ||
    typeof fields['message'] !== 'string' ||
    typeof fields['signature'] !== 'string' ||
    Object.keys(fields).some((key) => key !== 'message' && key !== 'signature')
  ) {
    throw new IdentityError(
      400,
      'invalid_request',
      'body must be { "message": string, "signature": string }',
    );
  }
  return { message: fields['message'], signature: fields['signature'] };
}

function bearerToken(request: IncomingMessage): string {
  const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(request.headers.authorization ?? '');
  if (!match) {
    throw new IdentityError(401, 'unauthorized', 'send Authorization: Bearer <token>');
  }
  return match[1];
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
      }
    });
    request.on('end', () =>
      size > MAX_BODY_BYTES
        ? reject(new IdentityError(413, 'payload_too_large', `body over ${MAX_BODY_BYTES} bytes`))
        : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    request.on('error', reject);
  });
}

function refusal(error: unknown, logger: Logger): Reply {
  if (error instanceof IdentityError) {
    return { status: error.status, body: { error: error.message, code: error.code } };
  }
  logger.error({ err: error }, 'unexpected error');
  return { status: 500, body: { error: 'internal error', code: 'internal_error' } };
}
