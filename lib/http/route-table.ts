// A route file as the code sees it — a handler per HTTP method — and the table of all of them,
// which the OpenAPI document and the remote MCP tools' in-process calls both read.
import type { Method } from './methods';
import type { Handler } from './observed';
import type { RouteOptions } from './route';

/**
 * A route file's exports; a handler declared with route() or documented() carries its options, and
 * an observed one (all of them) its bare handler.
 */
export type RouteModule = Partial<
  Record<Method | 'HEAD', Handler & { readonly options?: RouteOptions; readonly unobserved?: Handler }>
>;

/** Route files by path template, as in app/api: `[name]` is one segment. */
export type RouteTable<Template extends string = string> = readonly (readonly [
  template: Template,
  module: RouteModule,
])[];
