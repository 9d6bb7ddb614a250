// A tool call refused for a scope the token lacks (docs/api.md#step-up) is the MCP endpoint's own HTTP 403
// with the scope challenge, not a tool error: an MCP client re-authorizes on that status and header
// (MCP authorization, scope challenge handling), and would only show a tool error to the model. The
// API route the tool called has built the challenge already, naming /api/mcp's metadata (a call made
// inside /api/mcp is addressed to it: lib/http/auth-guard.ts), so it is passed on as it is.

const INSUFFICIENT_SCOPE = 'error="insufficient_scope"';

/**
 * Reads a tool makes only to add to its answer, doing without them when refused: get_mission's look at
 * an unfunded mission's funding (missions:post; docs/api.md#post-and-pay). A read-only token reading
 * its person's mission must get the mission, not a demand to re-authorize for more.
 */
const OPTIONAL_READS = [/^\/api\/missions\/[^/]+\/funding$/];

function optionalRead(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): boolean {
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  if (method !== 'GET') return false;
  const { pathname } = new URL(input instanceof Request ? input.url : String(input));
  return OPTIONAL_READS.some((path) => path.test(pathname));
}

export class ScopeChallengeWatch {
  private refusal: Response | undefined;

  /** `fetch`, noting the first answer refused for a missing scope. */
  watching(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
    return async (input, init) => {
      const response = await fetch(input, init);
      if (
        response.status === 403 &&
        !this.refusal &&
        !optionalRead(input, init) &&
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
    const challenge = this.refusal.headers.get('www-authenticate')!;
    return Response.json(
      { error },
      { status: 403, headers: { 'WWW-Authenticate': challenge, 'Cache-Control': 'no-store' } },
    );
  }
}
