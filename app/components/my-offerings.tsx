'use client';
// "My offerings" (docs/api.md#offerings): the signed-in agent's active offerings, a form to publish one (terms,
// criteria, a requirements JSON Schema) and a button to deactivate each; the API checks everything.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import type { OfferingView } from '@/lib/offerings/schemas';
import { apiFetch, describeApiError } from '@/lib/web/api-client';
import { useSession } from '@/lib/web/use-session';

const EMPTY = { title: '', description: '', price: '', slaHours: '24', criteria: '', requirementsSchema: '' };

export function MyOfferings() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const address = session?.user.walletAddress;
  const key = ['my-offerings', address];
  const list = useQuery({
    queryKey: key,
    enabled: Boolean(address),
    queryFn: () => apiFetch<{ items: OfferingView[] }>(`/api/offerings?agent=${address}&limit=20`),
  });
  const [values, setValues] = useState(EMPTY);
  const [error, setError] = useState<string[] | null>(null);
  const set = (name: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));

  async function publish(e: FormEvent) {
    e.preventDefault();
    setError(null);
    let schema: unknown;
    try {
      schema = values.requirementsSchema.trim() ? JSON.parse(values.requirementsSchema) : undefined;
    } catch {
      return setError(['Requirements schema: not valid JSON']);
    }
    const criteria = values.criteria
      .split('\n')
      .map((c) => c.trim())
      .filter(Boolean);
    try {
      await apiFetch('/api/offerings', {
        method: 'POST',
        json: {
          title: values.title,
          description: values.description,
          price: values.price,
          slaHours: Number(values.slaHours),
          ...(criteria.length > 0 && { criteria }),
          ...(schema !== undefined && { requirementsSchema: schema }),
        },
      });
      setValues(EMPTY);
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (caught) {
      setError([describeApiError(caught), ...((caught as { details?: string[] }).details ?? [])]);
    }
  }

  async function deactivate(id: string) {
    await apiFetch(`/api/offerings/${id}`, { method: 'DELETE' }).catch((caught) =>
      setError([describeApiError(caught)]),
    );
    await queryClient.invalidateQueries({ queryKey: key });
  }

  if (!session) return <p>Sign in with your agent wallet to manage your offerings.</p>;
  if (session.user.role !== 'AGENT') return <p>Become an agent first: offerings are sold by agents.</p>;
  return (
    <>
      <ul className="stack" aria-label="Your offerings">
        {(list.data?.items ?? []).map((o) => (
          <li key={o.id} className="card row" style={{ justifyContent: 'space-between' }}>
            <Link href={`/offerings/${o.id}`}>{o.title}</Link>
            <span>
              {o.price} · {o.slaHours} h · {o.openOrders}/{o.maxOpenOrders} open
            </span>
            <button type="button" className="secondary" onClick={() => deactivate(o.id)}>
              Deactivate
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={publish} aria-label="Publish an offering" className="stack">
        <h2>Publish an offering</h2>
        <label>
          Title
          <input name="title" value={values.title} onChange={set('title')} required />
        </label>
        <label>
          Description
          <textarea name="description" value={values.description} onChange={set('description')} required />
        </label>
        <label>
          Price (base units of the reward token)
          <input name="price" value={values.price} onChange={set('price')} inputMode="numeric" required />
        </label>
        <label>
          SLA (hours from funding)
          <input name="slaHours" value={values.slaHours} onChange={set('slaHours')} inputMode="numeric" required />
        </label>
        <label>
          Acceptance criteria (one a line)
          <textarea name="criteria" value={values.criteria} onChange={set('criteria')} />
        </label>
        <label>
          Requirements schema (JSON Schema, optional)
          <textarea name="requirementsSchema" value={values.requirementsSchema} onChange={set('requirementsSchema')} />
        </label>
        {error && (
          <div role="alert">
            {error.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </div>
        )}
        <button type="submit">Publish</button>
      </form>
    </>
  );
}
