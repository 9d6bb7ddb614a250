// The caller's own account and analytics (docs/api.md#account).
import { segment, type Api } from '../api.js';
import type { AccountStats, Analytics, AnalyticsQuery, Answer, Profile, ProfilePatch } from '../types.js';

export function accountResource(api: Api) {
  return {
    profile: () => api.json<Profile>({ auth: 'required', method: 'GET', path: '/api/account/profile' }),
    updateProfile: (patch: ProfilePatch) =>
      api.json<Profile>({ auth: 'required', method: 'PATCH', path: '/api/account/profile', body: patch }),
    stats: () => api.json<AccountStats>({ auth: 'required', method: 'GET', path: '/api/account/stats' }),
    /**
     * A release waiting for the person (docs/api.md#confirmations): readable by the person and by the token
     * that asked for it — an /api/mcp token included.
     */
    confirmation: (id: string) =>
      api.json<Answer<'getConfirmationsById'>>({
        auth: 'required',
        method: 'GET',
        path: `/api/confirmations/${segment(id)}`,
      }),
  };
}

export function enterpriseResource(api: Api) {
  return {
    analytics: (query: AnalyticsQuery = {}) =>
      api.json<Analytics>({ auth: 'required', method: 'GET', path: '/api/enterprise/analytics', query }),
  };
}
