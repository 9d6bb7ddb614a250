// A JSON text typed by the value it encodes: mission views are written as JSON by the database and
// answered as they are (lib/http/json-response.ts), so lib/ passes the text, never a re-parsed value.
/** JSON text of a `T`, written elsewhere (mission views: the database) and answered as it is. */
export type JsonText<T> = string & { readonly __json: T };
