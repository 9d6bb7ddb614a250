'use client';
// Who is signed in, as the session cookie says: seeded by the server layout, re-read from
// GET /api/auth/me, and replaced directly after sign-in, sign-out and register-agent.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiRequestError, apiFetch } from './api-client';
import type { Passport, SessionUser } from './session';

export const SESSION_KEY = ['session'] as const;

export interface Session {
  user: SessionUser;
  passport: Passport | null;
}

async function fetchSession(): Promise<Session | null> {
  try {
    return await apiFetch<Session>('/api/auth/me');
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

export function useSession() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: 60_000 });
  const setSession = useCallback(
    (session: Session | null) => queryClient.setQueryData(SESSION_KEY, session),
    [queryClient],
  );
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: SESSION_KEY }), [queryClient]);
  return { session: query.data ?? null, loading: query.isPending, error: query.error, setSession, refresh };
}
