// A call's answer. Awaited, it is the API's JSON, parsed; `text()` is the same JSON as the API wrote
// it, never parsed. The MCP tools pass answers on as text, and parsing a 14 KB page nobody reads
// was ~90 µs of a remote tool call's CPU (npm run bench's MCP scenario; docs/performance.md). A
// Promise, so it goes wherever one does (await, .catch, Promise.all), as openai-node's APIPromise.
import { TaskmarketError } from './errors.js';

interface Body {
  status: number;
  text: string;
  /** Whether the server declared the body JSON: text() answers nothing else, unparsed as it is. */
  declaredJson: boolean;
}

// application/json, or a +json type (RFC 6839), with any parameters.
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

const notJson = (status: number, cause: unknown) =>
  new TaskmarketError({ status, error: 'The server answered something other than JSON', cause });

// A body that breaks off (the connection reset mid-answer) is a failure to read, not a wrong type.
async function bodyOf(response: Response): Promise<Body> {
  try {
    return {
      status: response.status,
      text: await response.text(),
      declaredJson: JSON_TYPE.test(response.headers.get('content-type') ?? ''),
    };
  } catch (cause) {
    throw new TaskmarketError({
      status: response.status,
      error: `The server's answer could not be read: ${(cause as Error)?.message ?? cause}`,
      cause,
    });
  }
}

export class ApiPromise<T> extends Promise<T> {
  // Anything Promise's own methods derive from this one is a plain Promise.
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #response: Promise<Response>;
  #body: Promise<Body> | undefined;
  #parsed: Promise<T> | undefined;

  /** `response`: a successful response (send's), its body not read yet. */
  constructor(response: Promise<Response>) {
    super((resolve) => resolve(undefined as T));
    this.#response = response;
  }

  /**
   * The answer's JSON text, exactly as the API wrote it (compact), without parsing it. Nothing is
   * parsed, so the declared type is the check: a body not declared JSON (a proxy's HTML page
   * answered 200) is refused, where awaiting refuses what does not parse.
   */
  text(): Promise<string> {
    return this.answer().then(({ text }) => text);
  }

  /**
   * The answer's HTTP status beside its text (text()'s, checked the same way): for a caller to whom a
   * success's status says what it is — a release's 202 waits for the person (docs/api.md#confirmations)
   * where a 200 released — without reading it from the text.
   */
  answer(): Promise<{ status: number; text: string }> {
    return this.#read().then(({ status, text, declaredJson }) => {
      if (!declaredJson) throw notJson(status, undefined);
      return { status, text };
    });
  }

  // The reason is `any`, as in Promise's own signatures: a handler typed for the error it expects fits.
  // biome-ignore lint/suspicious/noThenProperty: an answer is awaited like the Promise it extends
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    // biome-ignore lint/suspicious/noExplicitAny: see above
    onRejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#parse().then(onFulfilled, onRejected);
  }

  // biome-ignore lint/suspicious/noExplicitAny: as Promise's own catch
  override catch<B = never>(onRejected?: ((reason: any) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#parse().catch(onRejected);
  }

  override finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#parse().finally(onFinally);
  }

  // The body is read once, whichever of text() and then() comes first.
  #read(): Promise<Body> {
    this.#body ??= this.#response.then(bodyOf);
    return this.#body;
  }

  #parse(): Promise<T> {
    this.#parsed ??= this.#read().then(({ status, text }) => {
      try {
        return JSON.parse(text) as T;
      } catch (cause) {
        throw notJson(status, cause);
      }
    });
    return this.#parsed;
  }
}
