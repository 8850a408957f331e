import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, SessionOnly, type Principal } from '@sts/auth';
import { WalletAddressParam } from '../../validation/path-params';
import { AccountQueries } from '../account.queries';
import { LinkChallengeRequest, LinkWalletRequest } from './dto/link-wallet.dto';
import { IssueLinkChallengeUseCase } from './use-cases/issue-link-challenge.use-case';
import { LinkWalletUseCase } from './use-cases/link-wallet.use-case';
import { UnlinkWalletUseCase } from './use-cases/unlink-wallet.use-case';
import { presentWallet, type WalletView } from './wallet.presenter';

@ApiTags('wallets')
@ApiSecurity('api-key')
@ApiBearerAuth()
@Controller('api/v1/wallets')
export class WalletsController {
  constructor(
    private readonly queries: AccountQueries,
    private readonly issueChallenge: IssueLinkChallengeUseCase,
    private readonly linkWallet: LinkWalletUseCase,
    private readonly unlinkWallet: UnlinkWalletUseCase,
  ) {}

  @RequireScopes('account:read')
  @Get()
  @ApiOperation({ summary: "The caller's linked wallets" })
  async list(@CurrentPrincipal() principal: Principal): Promise<WalletView[]> {
    return (await this.queries.wallets(principal.userId)).map(presentWallet);
  }

  @SessionOnly()
  @Post('link/challenge')
  @ApiOperation({ summary: 'Step 1 of linking: get the message the wallet must sign' })
  challenge(@CurrentPrincipal() principal: Principal, @Body() body: LinkChallengeRequest) {
    return this.issueChallenge.execute(principal.userId, body.address);
  }

  @SessionOnly()
  @Post('link')
  @ApiOperation({ summary: 'Step 2 of linking: submit the signed challenge' })
  async link(
    @CurrentPrincipal() principal: Principal,
    @Body() body: LinkWalletRequest,
  ): Promise<WalletView> {
    const wallet = await this.linkWallet.execute({
      userId: principal.userId,
      address: body.address,
      nonce: body.nonce,
      signature: body.signature as `0x${string}`,
    });
    return presentWallet(wallet);
  }

  @SessionOnly()
  @Delete(':address')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unlink a wallet (not the primary one, not while it has live trades)' })
  async unlink(@CurrentPrincipal() principal: Principal, @Param() params: WalletAddressParam) {
    await this.unlinkWallet.execute(principal.userId, params.address);
    return { status: 'unlinked', address: params.address.toLowerCase() };
  }
}
