// The missions board's filters as they live in the page URL (shareable, back-button friendly),
// and their translation into GET /api/missions query parameters (docs/api.md#listing).
import { MISSION_STATUSES } from '../fields';
import type { TokenInfo } from './money';
import { parseAmount } from './money';

export const SORTS = [
  { value: 'bumped', label: 'Recently posted or bumped' },
  { value: 'reward', label: 'Highest reward' },
  { value: 'deadline', label: 'Soonest deadline' },
  { value: 'created', label: 'Newest' },
] as const;

// Every state a mission can be in, from the one declaration (one's own lists hold unfunded missions too).
export const STATUSES = MISSION_STATUSES;

export interface MissionFilters {
  mine: '' | 'client' | 'agent';
  status: string;
  category: string;
  tag: string;
  /** In whole tokens, as typed. */
  minReward: string;
  q: string;
  sort: string;
}

const FIELDS = ['mine', 'status', 'category', 'tag', 'minReward', 'q', 'sort'] as const;

export function readFilters(params: URLSearchParams): MissionFilters {
  const get = (name: string) => params.get(name)?.trim() ?? '';
  const mine = get('mine');
  return {
    mine: mine === 'client' || mine === 'agent' ? mine : '',
    status: get('status').toUpperCase(),
    category: get('category'),
    tag: get('tag'),
    minReward: get('minReward'),
    q: get('q'),
    sort: SORTS.some((s) => s.value === get('sort')) ? get('sort') : 'bumped',
  };
}

/** The page URL's query string for these filters; defaults are left out. */
export function filtersToSearch(filters: MissionFilters): string {
  const params = new URLSearchParams();
  for (const field of FIELDS) {
    const value = filters[field];
    if (value && !(field === 'sort' && value === 'bumped')) params.set(field, value);
  }
  return params.toString();
}

/** The API query for these filters and a page cursor; amounts in base units. */
export function filtersToApiQuery(
  filters: MissionFilters,
  token: TokenInfo,
  cursor: string | undefined,
  limit: number,
): string {
  const params = new URLSearchParams({ limit: String(limit), sort: filters.sort });
  if (filters.mine) params.set('mine', filters.mine);
  // The public board lists OPEN missions only; a status filter applies to one's own lists.
  if (filters.mine && filters.status) params.set('status', filters.status);
  if (filters.category) params.set('category', filters.category.toLowerCase());
  if (filters.tag) params.set('tag', filters.tag.toLowerCase());
  if (filters.q) params.set('q', filters.q);
  const min = filters.minReward ? parseAmount(filters.minReward, token) : undefined;
  if (min?.ok) params.set('minReward', min.value.toString());
  if (cursor) params.set('cursor', cursor);
  return params.toString();
}
