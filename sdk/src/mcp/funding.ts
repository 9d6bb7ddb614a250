// A mission posted from a chat but not yet funded (docs/api.md#post-and-pay): the API created it
// AWAITING_FUNDING and answered where the person funds it (`funding.url`: one signature of a USDC
// authorization, no ETH). A client that declared URL-mode elicitation gets that URL as the
// URLElicitationRequiredError of MCP 2025-11-25; any other client gets it in the tool's text. The
// post is keyed by its arguments (an Idempotency-Key), so calling post_mission again with the same
// arguments — as a client does once the person has finished at the URL — answers the same mission
// as it then is (OPEN once funded), never a second one.
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import type { Session } from '../session/session.js';
import { ToolContent } from './tool-content.js';

interface Unfunded {
  id: string;
  title: string;
  status: string;
  funding?: { url: string; expiresAt: string; status?: string; reason?: string };
}

// docs/api.md#standing-allowance: why a post was not funded at once from the person's standing allowance.
const CAPS: Record<string, string> = {
  grant: "this app's funding limit for the last 24 h (Connected apps) does not cover it",
  'no-mandate': 'the person has no standing allowance in force for this app to fund from',
  'mandate-per-mission': "the reward is above the standing allowance's limit per mission",
  'mandate-per-day': "today's missions would go past the standing allowance's limit per day",
  allowance: "the permit's remaining allowance does not cover it",
  balance: "the person's wallet does not hold the reward",
  relayer: 'the relayer cannot take another funding right now',
};

/** The Idempotency-Key of a post_mission call: its arguments, hashed (the API keeps a key 24 hours). */
export async function postKeyOf(args: Record<string, unknown>): Promise<string> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(JSON.stringify(['post_mission', args])),
  );
  return `mcp-post-${Buffer.from(digest).toString('hex')}`;
}

const relayingMessage = (mission: Unfunded) =>
  `The mission "${mission.title}" (id ${mission.id}) is being funded from the person's standing allowance: ` +
  `the transaction is being mined, and it will be OPEN in a moment (get_mission ${mission.id}).`;

const messageOf = (mission: Unfunded, funding: NonNullable<Unfunded['funding']>) =>
  `The mission "${mission.title}" (id ${mission.id}) is created but not on the board yet: its reward is not funded` +
  (funding.reason && CAPS[funding.reason] ? ` at once, as ${CAPS[funding.reason]}. ` : '. ') +
  `The person opens ${funding.url} (signed in with the posting wallet) to check the terms ` +
  `and fund it with one signature from their wallet — no ETH needed — before ${funding.expiresAt}, ` +
  `when an unfunded mission is deleted. Once funded it is OPEN: get_mission ${mission.id} shows it, ` +
  `and post_mission with the same arguments answers this same mission, never a second one.`;

/**
 * post_mission's answer: the API's, or — for a mission awaiting its funding — the elicitation or the text saying where.
 */
export async function fundingAnswer(session: Session, text: string): Promise<string | ToolContent> {
  const mission = JSON.parse(text) as Unfunded;
  if (mission.status !== 'AWAITING_FUNDING' || !mission.funding) return text;
  // Funded from the standing allowance, still being mined: nothing for the person to do.
  if (mission.funding.status === 'relaying')
    return new ToolContent([
      { type: 'text', text },
      { type: 'text', text: relayingMessage(mission) },
    ]);
  const message = messageOf(mission, mission.funding);
  if (await session.urlElicitation?.()) {
    throw new UrlElicitationRequiredError(
      [{ mode: 'url', elicitationId: `funding-${mission.id}`, url: mission.funding.url, message }],
      message,
    );
  }
  return new ToolContent([
    { type: 'text', text },
    { type: 'text', text: message },
  ]);
}

/** get_mission's answer: the mission, and for one awaiting its funding, where it stands and where to fund it. */
export async function missionAnswer(session: Session, id: string, text: string): Promise<string | ToolContent> {
  if (!text.includes('"AWAITING_FUNDING"')) return text;
  const mission = JSON.parse(text) as Unfunded;
  if (mission.status !== 'AWAITING_FUNDING') return text;
  const url =
    mission.funding?.url ?? `${session.settings().baseUrl.replace(/\/$/, '')}/missions/${encodeURIComponent(id)}/fund`;
  let where: string;
  try {
    const funding = await session.client().missions.funding(id);
    where =
      funding.status === 'relaying'
        ? `Its funding was signed and is being mined${funding.txHash ? ` (transaction ${funding.txHash})` : ''}` +
          ': it will be OPEN in a moment.'
        : funding.status === 'failed'
          ? `Funding failed${funding.reason ? `: ${funding.reason}` : ''}. The person can fund it again at ${url}.`
          : funding.status === 'funded'
            ? 'It is funded and opening now.'
            : `Not funded yet: the person funds it with one signature at ${url}.`;
  } catch {
    where = `Not funded yet: the person funds it at ${url}.`;
  }
  return new ToolContent([
    { type: 'text', text },
    { type: 'text', text: `Awaiting funding, not on the board. ${where}` },
  ]);
}
