import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, SessionOnly, type Principal } from '@sts/auth';
import { CredentialParams, ExchangeParam } from '../../validation/path-params';
import { AccountQueries } from '../account.queries';
import { presentCredential, type CredentialView } from './credential.presenter';
import { AddCredentialRequest } from './dto/add-credential.dto';
import { AddCredentialUseCase } from './use-cases/add-credential.use-case';
import { RemoveCredentialUseCase } from './use-cases/remove-credential.use-case';

@ApiTags('credentials')
@ApiSecurity('api-key')
@ApiBearerAuth()
@Controller('api/v1/credentials')
export class CredentialsController {
  constructor(
    private readonly queries: AccountQueries,
    private readonly addCredential: AddCredentialUseCase,
    private readonly removeCredential: RemoveCredentialUseCase,
  ) {}

  @RequireScopes('account:read')
  @Get()
  @ApiOperation({ summary: "Metadata of the caller's exchange credentials (never the keys)" })
  async list(@CurrentPrincipal() principal: Principal): Promise<CredentialView[]> {
    return (await this.queries.credentials(principal.userId)).map(presentCredential);
  }

  @SessionOnly()
  @Post(':exchange')
  @ApiOperation({ summary: 'Add or rotate the credential of a linked wallet on an exchange' })
  async add(
    @CurrentPrincipal() principal: Principal,
    @Param() params: ExchangeParam,
    @Body() body: AddCredentialRequest,
  ): Promise<CredentialView> {
    return presentCredential(
      await this.addCredential.execute(principal.userId, params.exchange, body),
    );
  }

  @SessionOnly()
  @Delete(':exchange/:wallet')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a credential (not while a live trade uses it)' })
  async remove(@CurrentPrincipal() principal: Principal, @Param() params: CredentialParams) {
    await this.removeCredential.execute(principal.userId, params.exchange, params.wallet);
    return {
      status: 'deleted',
      exchange: params.exchange,
      wallet_addr: params.wallet.toLowerCase(),
    };
  }
}
