// A tool call refused for a scope the token lacks (docs/api.md#step-up) is the MCP endpoint's own HTTP 403
// with the scope challenge, not a tool error: an MCP client re-authorizes on that status and header
// (MCP authorization, scope challenge handling), and would only show a tool error to the model. The
// API route the tool called has built the challenge already, naming /api/mcp's metadata (a call made
// inside /api/mcp is addressed to it: lib/http/auth-guard.ts), so it is passed on as it is.
import { json } from '../http/route';

const INSUFFICIENT_SCOPE = 'error="insufficient_scope"';

export class ScopeChallengeWatch {
  private refusal: Response | undefined;

  /** `fetch`, noting the first answer refused for a missing scope. */
  watching(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
    return async (input, init) => {
      const response = await fetch(input, init);
      if (
        response.status === 403 &&
        !this.refusal &&
        response.headers.get('www-authenticate')?.includes(INSUFFICIENT_SCOPE)
      ) {
        this.refusal = response.clone();
      }
      return response;
    };
  }

  /** The endpoint's answer: `answer`, unless a call inside it was refused a scope — then that 403. */
  async answer(answer: Response): Promise<Response> {
    if (!this.refusal) return answer;
    await answer.body?.cancel();
    const { error } = (await this.refusal.json()) as { error: string };
    return json(
      { error },
      { status: 403, headers: { 'WWW-Authenticate': this.refusal.headers.get('www-authenticate')! } },
    );
  }
}
