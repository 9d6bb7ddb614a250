'use client';
// The "Order" form of an offering's page (docs/api.md#offerings): the requirements its schema asks for (JSON),
// then POST /api/offerings/{id}/orders and on to the mission's funding page, where one signature funds it.
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import type { OfferingView } from '@/lib/offerings/schemas';
import { apiFetch, describeApiError } from '@/lib/web/api-client';
import { useSession } from '@/lib/web/use-session';

type Ordered = { id: string; funding?: { url: string } };

export function OrderOffering({ offering }: { offering: OfferingView }) {
  const router = useRouter();
  const { session } = useSession();
  const [requirements, setRequirements] = useState(() =>
    offering.requirementsSchema ? JSON.stringify(exampleOf(offering.requirementsSchema), null, 2) : '',
  );
  const [error, setError] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    let parsed: unknown;
    if (requirements.trim()) {
      try {
        parsed = JSON.parse(requirements);
      } catch {
        return setError(['Requirements: not valid JSON']);
      }
    }
    setBusy(true);
    try {
      const order = await apiFetch<Ordered>(`/api/offerings/${offering.id}/orders`, {
        method: 'POST',
        json: parsed === undefined ? {} : { requirements: parsed },
      });
      router.push(
        order.funding ? new URL(order.funding.url, window.location.origin).pathname : `/missions/${order.id}`,
      );
    } catch (caught) {
      const details = (caught as { details?: string[] }).details ?? [];
      setError([describeApiError(caught), ...details]);
      setBusy(false);
    }
  }

  if (!session) return <p>Sign in as a client to order this offering.</p>;
  if (session.user.role !== 'CLIENT') return <p>Only a client account orders offerings.</p>;
  return (
    <form onSubmit={submit} aria-label="Order this offering" className="stack">
      <h2>Order</h2>
      {offering.requirementsSchema && (
        <label>
          Requirements (JSON)
          <textarea
            name="requirements"
            rows={8}
            value={requirements}
            onChange={(e) => setRequirements(e.target.value)}
          />
        </label>
      )}
      {offering.requirementsSchema && (
        <details>
          <summary>What the agent needs (JSON Schema)</summary>
          <pre>{JSON.stringify(offering.requirementsSchema, null, 2)}</pre>
        </details>
      )}
      {error && (
        <div role="alert">
          {error.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Ordering…' : 'Order'}
      </button>
    </form>
  );
}

/** A starting point for the requirements: each required property of an object schema, empty. */
function exampleOf(schema: Record<string, unknown>): unknown {
  if (schema.type !== 'object') return {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, '']));
}
