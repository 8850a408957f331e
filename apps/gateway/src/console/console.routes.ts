import { stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config/load-gateway-settings';
import { consoleConfigOf } from './console-config';

const NO_CACHE = 'no-cache';
/** Vite names its build output by content hash: a file under assets/ never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The trader console at /console/ (one origin with the API): its build's
 * files, /console/config.json from the settings, and index.html for any
 * other /console/ path without a file extension (the console routes in the
 * browser). Outside /api/v1, so outside the OpenAPI document; public, like
 * the files of any web page: what the console shows comes from the API.
 */
export async function registerConsole(
  fastify: FastifyInstance,
  config: GatewayConfig,
): Promise<void> {
  const consoleConfig = consoleConfigOf(config);
  const dir = config.settings.console.dir;
  const root = dir ? resolve(dir) : undefined;
  if (root) {
    // sendFile only (serve: false): @fastify/send refuses paths out of the root; the routes are ours.
    await fastify.register(fastifyStatic, { root, serve: false, cacheControl: false });
  }
  const notFound = (reply: FastifyReply, what: string) =>
    reply.code(404).send({ error: `${what} not found`, code: 'not_found' });

  fastify.get('/console', (_request, reply) => reply.redirect('/console/', 301));
  fastify.get('/console/config.json', (_request, reply) =>
    reply.header('cache-control', NO_CACHE).send(consoleConfig),
  );
  fastify.get('/console/*', async (request: FastifyRequest<{ Params: { '*': string } }>, reply) => {
    if (!root) {
      return notFound(reply, 'the console (CONSOLE_DIR is not set)');
    }
    const path = request.params['*'];
    if (!isSafeRelativePath(path)) {
      return reply.code(400).send({ error: 'invalid console path', code: 'invalid_request' });
    }
    if (path !== '' && (await isFileUnder(root, path))) {
      return reply
        .header('cache-control', path.startsWith('assets/') ? IMMUTABLE : NO_CACHE)
        .sendFile(path);
    }
    if (extname(path) !== '') {
      return notFound(reply, `/console/${path}`);
    }
    if (!(await isFileUnder(root, 'index.html'))) {
      return notFound(reply, 'the console build (no index.html in CONSOLE_DIR)');
    }
    return reply.header('cache-control', NO_CACHE).sendFile('index.html');
  });
}

/** No `..` segment, no backslash, no NUL, no absolute path: nothing that could leave the root. */
function isSafeRelativePath(path: string): boolean {
  return (
    !/[\\\0]/.test(path) &&
    !isAbsolute(path) &&
    !path.split('/').some((segment) => segment === '..' || segment === '.')
  );
}

async function isFileUnder(root: string, path: string): Promise<boolean> {
  const full = resolve(root, path);
  const inside = relative(root, full);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    return false;
  }
  try {
    return (await stat(full)).isFile();
  } catch {
    return false;
  }
}
