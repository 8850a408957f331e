import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsString,
  Length,
} from 'class-validator';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_FORMATS,
  type WebhookEventType,
  type WebhookFormat,
} from '@sts/persistence';
import { Optional } from '../../validation/optional';
import { MAX_WEBHOOK_URL_LENGTH } from '../use-cases/create-webhook/webhook-url';

/** The longest description an endpoint keeps. */
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 256;

/**
 * POST /api/v1/webhooks. The URL's own rules (scheme, credentials, its
 * addresses, the Telegram form) are checked by the create, after these.
 */
export class CreateWebhookRequest {
  @ApiProperty({
    description:
      'where deliveries are POSTed: an absolute `https:` URL (`http:` too where the operator allows private addresses), without credentials, whose host resolves to public addresses only; for `format: telegram`, `https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat id>`',
    example: 'https://hooks.example.com/sts',
  })
  @IsString({ message: 'url must be a string' })
  @Length(1, MAX_WEBHOOK_URL_LENGTH, {
    message: `url must be 1 to ${MAX_WEBHOOK_URL_LENGTH} characters`,
  })
  url: string;

  @ApiProperty({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    description: 'the event types to deliver: at least one, none twice',
    example: ['trade.status_changed', 'trade.fill'],
  })
  @IsArray({ message: 'events must be an array of event types' })
  @ArrayNotEmpty({ message: 'events must name at least one event type' })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length, {
    message: `events must name at most ${WEBHOOK_EVENT_TYPES.length} event types`,
  })
  @ArrayUnique({ message: 'events must not name an event type twice' })
  @IsIn(WEBHOOK_EVENT_TYPES, {
    each: true,
    message: `events must be among ${WEBHOOK_EVENT_TYPES.join(', ')}`,
  })
  events: WebhookEventType[];

  @ApiPropertyOptional({
    enum: WEBHOOK_FORMATS,
    default: 'standard',
    description:
      'the body sent: `standard` (Standard Webhooks `{type, timestamp, data}`, signed), or a message a chat service takes (`discord`, `slack`, `telegram`)',
  })
  @Optional()
  @IsIn(WEBHOOK_FORMATS, { message: `format must be one of ${WEBHOOK_FORMATS.join(', ')}` })
  format?: WebhookFormat;

  @ApiPropertyOptional({
    description: 'free text for the owner, shown back on every read',
    example: 'trade alerts for the desk',
  })
  @Optional()
  @IsString({ message: 'description must be a string' })
  @Length(0, MAX_WEBHOOK_DESCRIPTION_LENGTH, {
    message: `description must be at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters`,
  })
  description?: string;
}
