import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export class LinkChallengeRequest {
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })
  @Matches(EVM_ADDRESS, { message: 'address must be a 0x-prefixed 20-byte hex address' })
  address: string;
}

export class LinkWalletRequest extends LinkChallengeRequest {
  @ApiProperty({ description: 'The nonce of the challenge issued by /wallets/link/challenge' })
  @Matches(/^[A-Za-z0-9_-]{16,64}$/, { message: 'nonce is malformed' })
  nonce: string;

  @ApiProperty({ description: 'EIP-191 personal_sign signature of the challenge message' })
  @Matches(/^0x[0-9a-fA-F]{130}$/, { message: 'signature must be a 65-byte hex signature' })
  signature: string;
}
