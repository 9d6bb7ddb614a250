// The authenticated exchange every resource method goes through: decides whether a call carries
// a token, and when a token the client believed valid is answered 401 (revoked, expired early,
// server restarted with a new secret), signs in again and repeats the call once.
import type { Session } from './auth.js';
import { TaskmarketError } from './errors.js';
import { ApiPromise } from './answer.js';
import { send, type HttpConfig, type HttpRequest } from './http.js';

/**
 * `none`: never a token; `optional`: a token when the client has an account (public endpoints that
 * show a signed-in caller more); `required`: always; `{ secret }`: an operator secret instead of a user.
 */
export type AuthMode = 'none' | 'optional' | 'required' | { secret: string };

export type ApiRequest = Omit<HttpRequest, 'token'> & { auth: AuthMode };

export class Api {
  constructor(
    readonly http: HttpConfig,
    readonly session: Session,
  ) {}

  async response(request: ApiRequest): Promise<Response> {
    const { auth, ...rest } = request;
    if (typeof auth === 'object') return send(this.http, { ...rest, token: auth.secret });
    if (auth === 'none' || (auth === 'optional' && !this.session.canSignIn)) return send(this.http, rest);
    const token = await this.session.currentToken();
    try {
      return await send(this.http, { ...rest, token });
    } catch (error) {
      if (!(error instanceof TaskmarketError) || error.status !== 401 || !this.session.canRenew) throw error;
      this.session.discard(token);
      return send(this.http, { ...rest, token: await this.session.currentToken() });
    }
  }

  /** The answer, parsed when awaited (ApiPromise: `text()` leaves it unparsed). */
  json<T>(request: ApiRequest): ApiPromise<T> {
    return new ApiPromise<T>(this.response(request));
  }
}

/** A path segment from a caller's id: never a way to reach another route. */
export const segment = (value: string) => encodeURIComponent(value);
