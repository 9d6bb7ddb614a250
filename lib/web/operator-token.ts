// The operator's ADMIN_TOKEN in the dashboard (docs/api.md#operator-missions): held in this tab's
// sessionStorage only, and sent as the Authorization header of the operator's own requests.

// The token is the operator's whole power: never a cookie (sent with every request), never a URL (logged, shared).
const STORAGE_KEY = 'taskmarket.operator-token';

export const readOperatorToken = (): string | null => sessionStorage.getItem(STORAGE_KEY);

export function storeOperatorToken(token: string | null): void {
  if (token) sessionStorage.setItem(STORAGE_KEY, token);
  else sessionStorage.removeItem(STORAGE_KEY);
}

/** apiFetch options for an operator request: the bearer token, and not the session cookie. */
export const operatorInit = (token: string) => ({
  credentials: 'omit' as const,
  headers: { authorization: `Bearer ${token}` },
});

export const operatorMissionKey = (id: string) => ['operator-mission', id] as const;
