// The operations of a route table: every method handler that carries a description, read from the
// options it was declared with — nothing about an endpoint is stated anywhere but in its route.
import { METHODS } from '../http/methods';
import type { RouteOptions } from '../http/route';
import type { RouteTable } from '../http/route-table';
import type { OperationDoc } from '../http/operation-doc';
import type { Method, Operation } from './types';

/** In table order, and within a path GET, POST, PUT, PATCH, DELETE: the document's order. */
export function operationsOf(table: RouteTable): Operation[] {
  return table.flatMap(([template, module]) =>
    METHODS.flatMap((method) => {
      const options = module[method]?.options;
      return options?.doc ? [operationOf(template, method.toLowerCase() as Method, options, options.doc)] : [];
    }),
  );
}

function operationOf(template: string, method: Method, options: RouteOptions, doc: OperationDoc): Operation {
  return {
    ...doc,
    method,
    path: template.replace(/\[(\w+)\]/g, '{$1}'),
    access: options.operator ?? options.auth ?? 'public',
    limited: Boolean(options.limit),
    scoped: Boolean(options.auth) && options.scope !== 'any',
    originChecked: Boolean(options.session),
    params: options.params,
    query: options.query,
    body: options.body ?? doc.body,
    form: Boolean(options.form),
  };
}
