// Signed webhooks (docs/api.md#webhooks): endpoints, the outbox, delivery.
export { deliverPending } from './deliver';
export { addWebhook, listDeliveries, listWebhooks, removeWebhook } from './endpoints';
export * from './schemas';
