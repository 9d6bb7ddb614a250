// Every route handler of app/api with the path parameters it takes, for the property tests: the
// route table's (app/api/route-table.ts) and the catch-all's.
import * as catchAll from '@/app/api/[...path]/route';
import { ROUTE_TABLE } from '@/app/api/documented-routes';
import { METHODS } from '@/lib/http/methods';
import type { RouteTable } from '@/lib/http/route-table';

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface FuzzRoute {
  path: string;
  method: string;
  handler: Handler;
  /** Which path parameters it takes: the fixture mission's id, an agent's address, a file id. */
  params: ('id' | 'address' | 'fileId' | 'path')[];
}

const modules: RouteTable = [...ROUTE_TABLE, ['/api/[...path]', catchAll]];

export const ROUTES: FuzzRoute[] = modules.flatMap(([template, module]) => {
  const path = template.replace(/\[(?:\.\.\.)?(\w+)\]/g, '{$1}');
  const params = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as FuzzRoute['params'][number]);
  return METHODS.flatMap((method) => (module[method] ? [{ path, method, handler: module[method], params }] : []));
});

export const MODULE_COUNT = modules.length;
