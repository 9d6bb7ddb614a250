// Webhook endpoints (docs/api.md#webhooks): add (the signing secret is in this answer only), list, remove,
// and an endpoint's deliveries.
import { segment, type Api } from '../api.js';
import { PagedList } from '../pages.js';
import type {
  CreatedWebhook,
  CreateWebhookInput,
  PageQuery,
  Removed,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
} from '../types.js';

export function webhooksResource(api: Api) {
  return {
    create: (input: CreateWebhookInput) =>
      api.json<CreatedWebhook>({ auth: 'required', method: 'POST', path: '/api/webhooks', body: input }),
    list: () => api.json<WebhookList>({ auth: 'required', method: 'GET', path: '/api/webhooks' }),
    remove: (id: string) =>
      api.json<Removed>({ auth: 'required', method: 'DELETE', path: `/api/webhooks/${segment(id)}` }),
    deliveries(id: string, query: PageQuery = {}): PagedList<WebhookDelivery, WebhookDeliveryList> {
      return new PagedList((cursor) =>
        api.json<WebhookDeliveryList>({
          auth: 'required',
          method: 'GET',
          path: `/api/webhooks/${segment(id)}/deliveries`,
          query: { ...query, cursor: cursor ?? query.cursor },
        }),
      );
    },
  };
}
