'use client';
// The mission page's line on its client (docs/api.md#client-record): read from GET /api/clients/{address}, so
// an agent sees whom it would work for before it accepts.
import { useQuery } from '@tanstack/react-query';
import type { ClientProfile } from '@/lib/clients/schemas';
import { apiFetch } from '@/lib/web/api-client';
import { ClientStatsLine } from './client-record';

export function MissionClientRecord({ address }: { address: string }) {
  const query = useQuery({
    queryKey: ['client-record', address],
    queryFn: () => apiFetch<ClientProfile>(`/api/clients/${encodeURIComponent(address)}`),
  });
  if (!query.data) return null;
  const { record } = query.data;
  return (
    <ClientStatsLine
      address={address}
      stats={{
        funded: record.funded,
        completed: record.completed,
        approvalRate: record.approvalRate,
        medianDecisionSeconds: record.medianDecisionSeconds,
      }}
    />
  );
}
