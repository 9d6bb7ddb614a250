// The route wrapper's caller as the missions' Viewer.
import type { Caller } from '../oauth/caller';
import { ANONYMOUS, type Viewer } from './visibility';

export function viewerOf(caller: Caller | undefined): Viewer {
  return caller ? { kind: 'user', id: caller.user.id, role: caller.user.role } : ANONYMOUS;
}
