import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';

/**
 * Path parameters are validated like bodies (the global ValidationPipe), so a
 * NUL byte, a megabyte or a stray character is a 400 before any query sees it.
 * Trade ids are not here: a malformed one is the same 404 as an unknown one
 * (interface.md), decided in the queries by isUuid.
 */
export const WALLET_ADDRESS = /^0x[0-9a-fA-F]{40,64}$/;
export const EXCHANGE_ID = /^[a-z][a-z0-9_]{1,31}$/;

export class WalletAddressParam {
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })
  @Matches(WALLET_ADDRESS, { message: 'address must be a 0x-prefixed hex wallet address' })
  address: string;
}

export class ExchangeParam {
  @ApiProperty({ example: 'hyperliquid' })
  @Matches(EXCHANGE_ID, { message: 'exchange must be an exchange id' })
  exchange: string;
}

export class CredentialParams extends ExchangeParam {
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })
  @Matches(WALLET_ADDRESS, { message: 'wallet must be a 0x-prefixed hex wallet address' })
  wallet: string;
}
