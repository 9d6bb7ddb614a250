'use client';
// One mission transition from the dashboard (accept, submit, approve, contest, cancel, bump):
// POST /api/missions/{id}/{action}; the answer is the mission itself, which replaces the cached one.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MissionView } from '../missions/schemas';
import { type Fields, postMissionRequest, type MissionRequestOptions } from './mission-requests';

export type MissionAction = 'accept' | 'submit' | 'approve' | 'contest' | 'cancel' | 'bump';

export const missionKey = (id: string) => ['mission', id] as const;

interface Variables {
  fields?: Fields;
  options?: MissionRequestOptions;
}

export function useMissionAction(id: string, action: MissionAction) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fields = {}, options }: Variables = {}) =>
      postMissionRequest<MissionView>(`/api/missions/${encodeURIComponent(id)}/${action}`, fields, options),
    onSuccess: (mission) => {
      queryClient.setQueryData(missionKey(id), mission);
      void queryClient.invalidateQueries({ queryKey: ['missions'] });
    },
  });
}
