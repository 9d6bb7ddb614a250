// Signed webhooks (docs/api.md#webhooks): endpoints, the outbox, delivery.
export { deliverPending, sendQueuedWebhooks } from './deliver';
export { addWebhook, listDeliveries, listWebhooks, removeWebhook } from './endpoints';
export * from './schemas';
