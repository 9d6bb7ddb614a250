// A release waiting for the person (docs/api.md#confirmations): the API answered 202 { confirmation: { id,
// url, expiresAt } } and released nothing. A client that declared URL-mode elicitation gets it as the
// URLElicitationRequiredError of MCP 2025-11-25 (the person opens the URL; the model may call again
// after); any other client gets it in the tool's text, so the model can tell the person.
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import type { Session } from '../session/session.js';
import { ToolContent } from './tool-content.js';

interface Ticket {
  id: string;
  url: string;
  expiresAt: string;
}

// The status says it (ApiPromise.answer()), not the text's first bytes: a 202 is a release waiting.
const ticketOf = ({ status, text }: { status: number; text: string }): Ticket | undefined =>
  status === 202 ? (JSON.parse(text) as { confirmation?: Ticket }).confirmation : undefined;

const messageOf = (ticket: Ticket) =>
  `Nothing was released: this payment waits for the person's yes. They open ${ticket.url} ` +
  `(signed in with their wallet) to see the mission, the amount and the recipient, ` +
  `and approve or deny it before ${ticket.expiresAt}.`;

/** The API's answer to a release, or — when it waits for the person — the elicitation or the text saying so. */
export async function releaseAnswer(
  session: Session,
  answer: Promise<{ status: number; text: string }>,
): Promise<string | ToolContent> {
  const { status, text } = await answer;
  const ticket = ticketOf({ status, text });
  if (!ticket) return text;
  const message = messageOf(ticket);
  if (await session.urlElicitation?.()) {
    throw new UrlElicitationRequiredError(
      [{ mode: 'url', elicitationId: ticket.id, url: ticket.url, message }],
      message,
    );
  }
  return new ToolContent([
    { type: 'text', text },
    { type: 'text', text: message },
  ]);
}
