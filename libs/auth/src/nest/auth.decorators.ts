import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Principal, Scope } from '../principal';

export const PUBLIC_ROUTE = 'sts:public';
export const REQUIRED_SCOPES = 'sts:scopes';
export const SESSION_ONLY = 'sts:session-only';

/** No authentication (markets, maintenance, health). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** The caller's credentials must carry every listed scope. */
export const RequireScopes = (...scopes: Scope[]): MethodDecorator & ClassDecorator =>
  SetMetadata(REQUIRED_SCOPES, scopes);

/** Browser-session JWT only: API keys get 403 session_required. */
export const SessionOnly = (): MethodDecorator & ClassDecorator => SetMetadata(SESSION_ONLY, true);

export interface AuthenticatedRequest {
  principal?: Principal;
}

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => {
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    if (!principal) {
      throw new Error('CurrentPrincipal used on a public route');
    }
    return principal;
  },
);
