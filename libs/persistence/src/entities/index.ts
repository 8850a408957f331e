import { ApiKeyEntity } from './api-key.entity';
import { ExchangeCredentialEntity } from './exchange-credential.entity';
import { MaintenanceEntity } from './maintenance.entity';
import { OutboxEntity } from './outbox.entity';
import { OperatorAuditEntity } from './operator-audit.entity';
import { SystemFlagEntity } from './system-flag.entity';
import { TradeEventEntity } from './trade-event.entity';
import { TradeEntity } from './trade.entity';
import { UserEntity } from './user.entity';
import { WalletLinkChallengeEntity } from './wallet-link-challenge.entity';
import { WalletEntity } from './wallet.entity';

export {
  ApiKeyEntity,
  ExchangeCredentialEntity,
  MaintenanceEntity,
  OperatorAuditEntity,
  OutboxEntity,
  SystemFlagEntity,
  TradeEntity,
  TradeEventEntity,
  UserEntity,
  WalletEntity,
  WalletLinkChallengeEntity,
};
export { KILL_SWITCH } from './system-flag.entity';

export const ENTITIES = [
  ApiKeyEntity,
  ExchangeCredentialEntity,
  MaintenanceEntity,
  OperatorAuditEntity,
  OutboxEntity,
  SystemFlagEntity,
  TradeEntity,
  TradeEventEntity,
  UserEntity,
  WalletEntity,
  WalletLinkChallengeEntity,
];
