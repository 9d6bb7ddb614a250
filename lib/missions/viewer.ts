// The route wrapper's caller as the missions' Viewer.
import type { Caller } from '../oauth/caller';
import { ANONYMOUS, type Viewer } from './visibility';

export function viewerOf(caller: Caller | undefined): Viewer {
  if (!caller) return ANONYMOUS;
  const { id, role } = caller.user;
  return caller.grant ? { kind: 'user', id, role, scopes: caller.grant.scopes } : { kind: 'user', id, role };
}
