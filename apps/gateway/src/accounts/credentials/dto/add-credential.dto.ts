import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { Optional } from '../../../validation/optional';

export class AddCredentialRequest {
  @ApiProperty({ description: 'A wallet linked to the caller that this key trades for' })
  @Matches(/^0x[0-9a-fA-F]{40,64}$/, { message: 'wallet_addr must be a 0x-prefixed hex address' })
  wallet_addr: string;

  @ApiProperty({ description: "The venue API key's public part" })
  @IsString()
  @Length(8, 512)
  api_key: string;

  @ApiProperty({ description: 'The venue API secret; sealed at rest, never returned' })
  @IsString()
  @Length(8, 4096)
  api_secret: string;

  @ApiPropertyOptional({ description: 'Venues that issue a passphrase with the key' })
  @Optional()
  @IsString()
  @Length(1, 512)
  passphrase?: string;
}
