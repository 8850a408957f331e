import { Module } from '@nestjs/common';
import { CreateWebhookUseCase } from './use-cases/create-webhook/create-webhook.use-case';
import { DeleteWebhookUseCase } from './use-cases/delete-webhook/delete-webhook.use-case';
import { TestWebhookUseCase } from './use-cases/test-webhook/test-webhook.use-case';
import { WebhookQueries } from './webhook.queries';
import { WebhooksController } from './webhooks.controller';

/**
 * Webhook endpoints (issue 58; decisions section 8): a user registers, reads,
 * tests and deletes them here; the notifier's dispatcher delivers.
 */
@Module({
  controllers: [WebhooksController],
  providers: [WebhookQueries, CreateWebhookUseCase, DeleteWebhookUseCase, TestWebhookUseCase],
})
export class WebhooksModule {}
