import Router from 'find-my-way';

/**
 * The gateway's routes by path, so a request for a known path with another
 * method is answered 405 with `Allow` rather than 404. Filled from Fastify's
 * onRoute hook at boot (registerRouteTable); read only on the error path.
 * find-my-way is the router Fastify itself uses, so paths match the same way.
 */
const routes = Router();
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export function rememberRoute(method: string | string[], url: string): void {
  for (const one of Array.isArray(method) ? method : [method]) {
    if ((METHODS as readonly string[]).includes(one) && !routes.hasRoute(one as 'GET', url)) {
      routes.on(one as 'GET', url, () => undefined);
    }
  }
}

/** The methods a path answers to when `method` is not one of them; empty for unknown paths. */
export function allowedMethodsOf(method: string, url: string): string[] {
  const path = url.split('?', 1)[0] ?? url;
  const allowed = METHODS.filter((candidate) => routes.find(candidate, path) !== null);
  return allowed.includes(method as (typeof METHODS)[number]) ? [] : allowed;
}
