import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '@sts/platform';
import type { Scope } from '../principal';
import { RequestAuthenticator } from '../request-authenticator';
import {
  PUBLIC_ROUTE,
  REQUIRED_SCOPES,
  SESSION_ONLY,
  type AuthenticatedRequest,
} from './auth.decorators';

interface HttpRequestLike extends AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  ip: string;
  /** Set on arrival by a server that keeps exact caches (PresentedCredentials.arrivalMark). */
  changeMark?: number;
}

const header = (request: HttpRequestLike, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Global guard: authenticates every non-public route, then checks session and scopes. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: RequestAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) {
      return true;
    }

    const request = context.switchToHttp().getRequest<HttpRequestLike>();
    const principal = await this.authenticator.authenticate({
      apiKey: header(request, 'x-api-key'),
      authorization: header(request, 'authorization'),
      clientIp: request.ip,
      arrivalMark: request.changeMark,
    });
    request.principal = principal;

    if (
      this.reflector.getAllAndOverride<boolean>(SESSION_ONLY, targets) &&
      principal.method !== 'jwt'
    ) {
      throw new AppError(
        'session_required',
        'this endpoint needs a browser session (JWT); API keys cannot use it',
      );
    }
    const required = this.reflector.getAllAndOverride<Scope[]>(REQUIRED_SCOPES, targets) ?? [];
    const missing = required.filter((scope) => !principal.scopes.has(scope));
    if (missing.length > 0) {
      throw new AppError('insufficient_scope', `API key lacks scope ${missing.join(', ')}`);
    }
    return true;
  }
}
