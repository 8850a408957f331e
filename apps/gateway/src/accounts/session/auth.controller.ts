import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, SessionOnly, type Principal } from '@sts/auth';
import { SessionUsers } from './session-users';

/** POST /auth/verify takes no fields; like every other body, an unknown one is a 400. */
export class VerifySessionRequest {}

@ApiTags('session')
@ApiBearerAuth()
@Controller('api/v1/auth')
export class AuthController {
  constructor(private readonly users: SessionUsers) {}

  @SessionOnly()
  @Post('verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm the JWT and bootstrap the session (creates the account on first sign-in)',
  })
  async verify(@CurrentPrincipal() principal: Principal, @Body() _body: VerifySessionRequest) {
    const user = await this.users.ensure(principal);
    return {
      user_id: user.userId,
      wallet_address: user.walletAddress,
      new_account: user.created,
      expires_at: principal.expiresAt.toISOString(),
      scopes: [...principal.scopes],
    };
  }
}
