'use client';
// The page a confirmation's `url` opens (docs/api.md#confirmations): the person, signed in with their wallet,
// sees the release and approves or denies it.
import { useQuery } from '@tanstack/react-query';
import type { ConfirmationView } from '@/lib/confirmations/schemas';
import { apiFetch } from '@/lib/web/api-client';
import { ConfirmationCard } from './confirmation-card';
import { ErrorAlert, LoadingMessage } from './request-status';

export function ConfirmationDetail({ id }: { id: string }) {
  const query = useQuery({
    queryKey: ['confirmation', id],
    queryFn: () => apiFetch<ConfirmationView>(`/api/confirmations/${encodeURIComponent(id)}`),
  });
  if (query.isPending) return <LoadingMessage label="Loading the confirmation" />;
  if (query.isError)
    return (
      <ErrorAlert error={query.error} title="Could not load this confirmation" onRetry={() => void query.refetch()} />
    );
  return <ConfirmationCard confirmation={query.data} showDeliverable />;
}
