// Signed webhooks (docs/api.md#webhooks): endpoints, the outbox, delivery.
export { deliverPending, sendQueuedWebhooks } from './deliver';
export { addWebhook, listDeliveries, listWebhooks, removeWebhook } from './endpoints';
export { deleteOldWebhookData } from './retention';
export * from './schemas';
