// The OAuth authorize page (docs/api.md#oauth-21): an AI client sent the person here. What it shows is
// decided by lib/oauth/authorization-view.ts — a refusal, an error with a link back (never a
// redirect, unless this person approved that client before), wallet sign-in, or the consent form:
// who is asking, where the answer goes and what it may do, posted with a one-time token bound to
// this person and these exact terms.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { clientIp } from '@/lib/http/client-ip';
import { documentRequester } from '@/lib/http/document-requester';
import { getKv } from '@/lib/kv';
import { viewAuthorization } from '@/lib/oauth/authorization-view';
import { issuerOf } from '@/lib/oauth/metadata';
import { currentSession } from '../../_server/current-session';
import { rewardTokenOf } from '../../_server/reward-token';
import { rewardTokenDecimals } from '@/lib/chain/token-metadata';
import { AuthorizationScreen } from './authorization-screen';

export const metadata: Metadata = { title: 'Connect an app' };

type SearchParams = Record<string, string | string[] | undefined>;

export default async function AuthorizePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const session = await currentSession();
  const cfg = config();
  // A client metadata document fetched for this view counts against this IP and against everyone
  // (docs/api.md#client-id-metadata-documents).
  const ip = clientIp(await headers(), cfg.trustProxy, cfg.onVercel);
  const requester = documentRequester(cfg, getKv(), ip);
  const view = await viewAuthorization(
    await getDb(),
    getKv(),
    issuerOf(cfg),
    params,
    session?.user.id,
    new Date(),
    requester,
  );
  const hidden = Object.fromEntries(
    Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  const here = `/oauth/authorize?${new URLSearchParams(hidden).toString()}`;
  // The release limit is typed in the reward token's units: its symbol, asked for the consent form only.
  const token = view.kind === 'consent' ? await rewardTokenOf(cfg) : undefined;
  return (
    <AuthorizationScreen
      view={view}
      here={here}
      hidden={hidden}
      tokenSymbol={token?.symbol}
      tokenDecimals={token ? await rewardTokenDecimals(cfg) : undefined}
    />
  );
}
