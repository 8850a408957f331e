import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  MAX_WEBHOOK_ENDPOINTS_PER_USER,
  WebhookEndpointRepository,
  webhookSecretContext,
  type WebhookEndpoint,
} from '@sts/persistence';
import { AppError, CredentialCipher } from '@sts/platform';
import type { GatewayConfig } from '../../../config/load-gateway-settings';
import { GATEWAY_CONFIG, WEBHOOK_SECRET_CIPHER } from '../../../infrastructure/tokens';
import type { CreateWebhookRequest } from '../../dto/create-webhook.request';
import { newWebhookSecret } from './webhook-secret';
import { checkWebhookHost, webhookUrl, type WebhookUrlRules } from './webhook-url';

export interface CreatedWebhook {
  endpoint: WebhookEndpoint;
  /** The plain signing secret: answered once, never stored or logged as it is. */
  secret: string;
}

/** Postgres' foreign key violation: the user row the endpoint names does not exist. */
const NO_SUCH_USER = '23503';

/**
 * POST /api/v1/webhooks. Every rule is checked before anything is written
 * (a refusal stores nothing): the body's shape (the DTO), the URL's form
 * and then its host's addresses. The endpoint's id is chosen here, so its
 * secret is sealed under (user, endpoint) before the one insert, which also
 * enforces the per-user cap.
 */
@Injectable()
export class CreateWebhookUseCase {
  private readonly endpoints: WebhookEndpointRepository;
  private readonly rules: WebhookUrlRules;

  constructor(
    dataSource: DataSource,
    @Inject(WEBHOOK_SECRET_CIPHER) private readonly cipher: CredentialCipher,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.endpoints = new WebhookEndpointRepository(dataSource.manager);
    this.rules = { allowPrivateAddresses: config.settings.webhooksAllowPrivateAddresses };
  }

  async execute(userId: string, request: CreateWebhookRequest): Promise<CreatedWebhook> {
    const format = request.format ?? 'standard';
    const url = webhookUrl(request.url, format, this.rules);
    await checkWebhookHost(url, this.rules);
    const id = randomUUID();
    const secret = newWebhookSecret();
    const endpoint = await this.endpoints
      .create(id, {
        userId,
        url: url.href,
        events: request.events,
        format,
        description: request.description ?? '',
        secret: this.cipher.sealText(secret, webhookSecretContext(userId, id)),
      })
      .catch((error: unknown) => {
        if ((error as { code?: unknown }).code === NO_SUCH_USER) {
          throw new AppError(
            'invalid_request',
            'this session has no account yet: sign in through POST /api/v1/auth/verify first',
          );
        }
        throw error;
      });
    if (!endpoint) {
      throw new AppError(
        'webhook_cap_exceeded',
        `max ${MAX_WEBHOOK_ENDPOINTS_PER_USER} webhooks per user: you already have ${MAX_WEBHOOK_ENDPOINTS_PER_USER}; delete one before adding another`,
      );
    }
    return { endpoint, secret };
  }
}
