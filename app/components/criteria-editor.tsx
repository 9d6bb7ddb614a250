'use client';
// The poster's criteria editor on an AWAITING_FUNDING mission (docs/api.md#criteria): the same inputs
// as the post form, saved with PUT /api/missions/{id}/criteria; once OPEN the page no longer offers it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { criteriaTextsSchema } from '@/lib/missions/criteria';
import type { MissionView } from '@/lib/missions/schemas';
import { apiFetch } from '@/lib/web/api-client';
import { missionKey } from '@/lib/web/use-mission-action';
import { CriteriaInputs } from './criteria-inputs';
import { ErrorAlert } from './request-status';

export function CriteriaEditor({ mission }: { mission: MissionView }) {
  const queryClient = useQueryClient();
  const [criteria, setCriteria] = useState(() => mission.criteria.map((c) => c.text));
  const [error, setError] = useState<string | undefined>();
  const mutation = useMutation({
    mutationFn: (list: string[] | null) =>
      apiFetch<MissionView>(`/api/missions/${encodeURIComponent(mission.id)}/criteria`, {
        method: 'PUT',
        json: { criteria: list },
      }),
    onSuccess: (updated) => queryClient.setQueryData(missionKey(mission.id), updated),
  });

  function save(e: FormEvent) {
    e.preventDefault();
    const listed = criteria.map((c) => c.trim()).filter(Boolean);
    const invalid = listed.length > 0 && !criteriaTextsSchema.safeParse(listed).success;
    setError(invalid ? 'Each criterion: one line, 1–500 characters; at most 20.' : undefined);
    if (!invalid) mutation.mutate(listed.length > 0 ? listed : null);
  }

  return (
    <form className="panel" onSubmit={save} noValidate aria-label="Edit the acceptance criteria">
      <CriteriaInputs criteria={criteria} error={error} disabled={mutation.isPending} onChange={setCriteria} />
      {mutation.isError && <ErrorAlert error={mutation.error} title="Could not save the criteria" />}
      {mutation.isSuccess && <p role="status">Criteria saved.</p>}
      <button type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? 'Saving…' : 'Save criteria'}
      </button>
    </form>
  );
}
