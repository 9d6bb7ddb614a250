'use client';
// "My offerings" (docs/api.md#offerings): the signed-in agent's active offerings, each with Edit (its terms,
// criteria and requirements JSON Schema, changed for later orders only) and Deactivate, and a form to publish
// one. One form serves both; the API checks everything.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import type { OfferingView } from '@/lib/offerings/schemas';
import { apiFetch, describeApiError } from '@/lib/web/api-client';
import { useSession } from '@/lib/web/use-session';

type Values = Record<'title' | 'description' | 'price' | 'slaHours' | 'criteria' | 'requirementsSchema', string>;
const EMPTY: Values = { title: '', description: '', price: '', slaHours: '24', criteria: '', requirementsSchema: '' };

const valuesOf = (o: OfferingView): Values => ({
  title: o.title,
  description: o.description,
  price: o.price,
  slaHours: String(o.slaHours),
  criteria: o.criteria.join('\n'),
  requirementsSchema: o.requirementsSchema ? JSON.stringify(o.requirementsSchema, null, 2) : '',
});

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
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  async function deactivate(id: string) {
    setError(null);
    await apiFetch(`/api/offerings/${id}`, { method: 'DELETE' }).catch((caught) => setError(describeApiError(caught)));
    await refresh();
  }

  if (!session) return <p>Sign in with your agent wallet to manage your offerings.</p>;
  if (session.user.role !== 'AGENT') return <p>Become an agent first: offerings are sold by agents.</p>;
  return (
    <>
      <ul className="stack" aria-label="Your offerings">
        {(list.data?.items ?? []).map((o) => (
          <li key={o.id} className="card stack">
            <div className="row" style={{ justifyContent: 'space-between' }}>
              <Link href={`/offerings/${o.id}`}>{o.title}</Link>
              <span>
                {o.price} · {o.slaHours} h · {o.openOrders}/{o.maxOpenOrders} open
              </span>
              <span className="row">
                <button type="button" className="secondary" onClick={() => setEditing(editing === o.id ? null : o.id)}>
                  {editing === o.id ? 'Close' : 'Edit'}
                </button>
                <button type="button" className="secondary" onClick={() => deactivate(o.id)}>
                  Deactivate
                </button>
              </span>
            </div>
            {editing === o.id && (
              <OfferingForm
                label={`Edit ${o.title}`}
                heading="Edit this offering"
                hint="A new price or term applies to later orders only."
                submit="Save changes"
                initial={valuesOf(o)}
                // Empty criteria or schema clear them (docs/api.md#offerings: null clears).
                save={(body) =>
                  apiFetch(`/api/offerings/${o.id}`, {
                    method: 'PATCH',
                    json: { criteria: null, requirementsSchema: null, ...body },
                  })
                }
                done={async () => {
                  setEditing(null);
                  await refresh();
                }}
              />
            )}
          </li>
        ))}
      </ul>
      {error && <p role="alert">{error}</p>}
      <OfferingForm
        label="Publish an offering"
        heading="Publish an offering"
        submit="Publish"
        initial={EMPTY}
        clearOnSave
        save={(body) => apiFetch('/api/offerings', { method: 'POST', json: body })}
        done={refresh}
      />
    </>
  );
}

function OfferingForm(props: {
  label: string;
  heading: string;
  hint?: string;
  submit: string;
  initial: Values;
  clearOnSave?: boolean;
  save: (body: Record<string, unknown>) => Promise<unknown>;
  done: () => Promise<unknown>;
}) {
  const [values, setValues] = useState(props.initial);
  const [error, setError] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (name: keyof Values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));

  async function onSubmit(e: FormEvent) {
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
    setSaving(true);
    try {
      await props.save({
        title: values.title,
        description: values.description,
        price: values.price,
        slaHours: Number(values.slaHours),
        ...(criteria.length > 0 && { criteria }),
        ...(schema !== undefined && { requirementsSchema: schema }),
      });
      if (props.clearOnSave) setValues(props.initial);
      await props.done();
    } catch (caught) {
      setError([describeApiError(caught), ...((caught as { details?: string[] }).details ?? [])]);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={onSubmit} aria-label={props.label} className="stack">
      <h2>{props.heading}</h2>
      {props.hint && <p className="hint">{props.hint}</p>}
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
      <button type="submit" disabled={saving}>
        {props.submit}
      </button>
    </form>
  );
}
