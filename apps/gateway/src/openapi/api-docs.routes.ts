import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { describeApi } from './api-document';
import { ASYNCAPI_DOCUMENT } from './asyncapi-document';

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<title>Spread trading API</title>
<link rel="stylesheet" href="/api/v1/docs/swagger-ui.css" />
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/v1/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#swagger-ui' });</script>
</body>
</html>
`;

/**
 * The API's descriptions, public and built once at boot: OpenAPI at
 * /api/v1/openapi.json, AsyncAPI (the notifier's WebSocket) at
 * /api/v1/asyncapi.json, and a browsable page at /api/v1/docs (Swagger UI,
 * served from the swagger-ui-dist package: no CDN).
 */
export function registerApiDocs(app: NestFastifyApplication): void {
  const openApi = describeApi(app);
  const assets = dirname(require.resolve('swagger-ui-dist/package.json'));
  const css = readFileSync(join(assets, 'swagger-ui.css'));
  const bundle = readFileSync(join(assets, 'swagger-ui-bundle.js'));
  const fastify = app.getHttpAdapter().getInstance();
  const serve = (path: string, type: string, body: unknown) =>
    fastify.get(path, (_request, reply: FastifyReply) => reply.type(type).send(body));
  serve('/api/v1/openapi.json', 'application/json; charset=utf-8', openApi);
  serve('/api/v1/asyncapi.json', 'application/json; charset=utf-8', ASYNCAPI_DOCUMENT);
  serve('/api/v1/docs', 'text/html; charset=utf-8', DOCS_PAGE);
  serve('/api/v1/docs/swagger-ui.css', 'text/css; charset=utf-8', css);
  serve('/api/v1/docs/swagger-ui-bundle.js', 'application/javascript; charset=utf-8', bundle);
}
