'use client';
// The signed-in user's webhook endpoints (docs/api.md#webhooks): add one (its secret is shown once), see
// each endpoint's recent deliveries and how they went, remove one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { createWebhookSchema, WEBHOOK_EVENTS, type WebhookEndpointView } from '@/lib/webhooks/schemas';
import { apiFetch, describeApiError } from '@/lib/web/api-client';
import { formatTime } from './mission-timeline';
import { ErrorAlert, LoadingMessage } from './request-status';

const KEY = ['webhooks'];

export function WebhooksPanel() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: () => apiFetch<{ items: WebhookEndpointView[] }>('/api/webhooks') });
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['mission.accepted', 'mission.submitted', 'mission.completed']);
  const [secret, setSecret] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: () =>
      apiFetch<WebhookEndpointView & { secret: string }>('/api/webhooks', {
        method: 'POST',
        json: { url: url.trim(), events },
      }),
    onSuccess: (created) => {
      setSecret(created.secret);
      setUrl('');
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/webhooks/${id}`, { method: 'DELETE' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: KEY }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (url.trim() && events.length > 0) add.mutate();
  };
  if (list.isPending) return <LoadingMessage label="Loading your endpoints" />;
  if (list.isError)
    return <ErrorAlert error={list.error} title="Could not load your endpoints" onRetry={() => void list.refetch()} />;
  return (
    <div className="stack">
      <form className="panel stack" onSubmit={submit} aria-labelledby="add-webhook-heading">
        <h2 id="add-webhook-heading">Add an endpoint</h2>
        <label htmlFor="webhook-url">HTTPS URL</label>
        <input
          id="webhook-url"
          type="url"
          value={url}
          maxLength={createWebhookSchema.shape.url.maxLength!}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/taskmarket"
        />
        <fieldset className="stack">
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event}>
              <input
                type="checkbox"
                checked={events.includes(event)}
                onChange={(e) => setEvents(e.target.checked ? [...events, event] : events.filter((x) => x !== event))}
              />{' '}
              {event}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={add.isPending || !url.trim() || events.length === 0}>
          Add endpoint
        </button>
        {add.isError && (
          <p className="alert alert-error" role="alert">
            {describeApiError(add.error)}
          </p>
        )}
      </form>
      {secret && (
        <div className="alert alert-ok" role="status" data-testid="webhook-secret">
          <p>Signing secret — copy it now, it is not shown again:</p>
          <p>
            <code style={{ overflowWrap: 'anywhere' }}>{secret}</code>
          </p>
        </div>
      )}
      <h2>Your endpoints</h2>
      {list.data.items.length === 0 ? (
        <p>No endpoints yet.</p>
      ) : (
        <ul className="stack" data-testid="webhook-endpoints">
          {list.data.items.map((endpoint) => (
            <li key={endpoint.id} className="panel stack">
              <p style={{ overflowWrap: 'anywhere' }}>
                <strong>{endpoint.url}</strong> · {endpoint.status.toLowerCase()}
              </p>
              <p className="hint">{endpoint.events.join(', ')}</p>
              <Deliveries endpointId={endpoint.id} />
              <button
                type="button"
                className="secondary"
                disabled={remove.isPending}
                onClick={() => remove.mutate(endpoint.id)}
              >
                Remove endpoint
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface Delivery {
  id: string;
  event: string;
  status: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const list = useQuery({
    queryKey: ['webhook-deliveries', endpointId],
    queryFn: () => apiFetch<{ items: Delivery[] }>(`/api/webhooks/${endpointId}/deliveries?limit=10`),
  });
  if (list.isPending) return <LoadingMessage label="Loading deliveries" />;
  if (list.isError)
    return (
      <p className="alert alert-error" role="alert">
        {describeApiError(list.error)}
      </p>
    );
  if (list.data.items.length === 0) return <p className="hint">No deliveries yet.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Recent deliveries</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Queued</th>
          </tr>
        </thead>
        <tbody>
          {list.data.items.map((d) => (
            <tr key={d.id}>
              <td>{d.event}</td>
              <td>{d.status.toLowerCase()}</td>
              <td>{d.attempts}</td>
              <td>{d.lastStatus ?? d.lastError ?? '—'}</td>
              <td>{formatTime(d.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
