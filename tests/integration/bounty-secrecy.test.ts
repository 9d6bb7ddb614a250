// An entrant never sees another's entry before the bounty is COMPLETED (docs/api.md#bounties): not through
// the entries list, the mission, a file download, the board's search or a webhook — each way is
// tried here by one entrant against another's entry, in every state before COMPLETED; once
// COMPLETED, the entrants see them all. (The MCP tools and the dashboard read through these same
// functions: tests/sdk and the e2e suite.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GET as fileRoute } from '@/app/api/missions/[id]/files/[fileId]/route';
import { GET as listRoute } from '@/app/api/missions/route';
import { POST as addWebhook } from '@/app/api/webhooks/route';
import { call } from '../support/http';
import { isolatedDatabase } from '../support/isolated-database';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { getMission, newAgent, newClient, ok, type Party, resolve } from '../support/missions';
import { pdf } from '../support/multipart';
import { startWebhookReceiver } from '../support/webhook-receiver';
import {
  award,
  closeEntries,
  contestAward,
  createBounty,
  endWindow,
  enter,
  entriesOf,
  sweep,
} from '../support/bounties';
import { WEBHOOK_EVENTS } from '@/lib/webhooks/schemas';

// A database of its own on PostgreSQL: the webhook outbox is global, and another file's sweep (whose
// environment refuses private receivers) would otherwise take this file's deliveries into backoff.
useTestEnvironment({
  ...isolatedDatabase(),
  ...BOOKKEEPING,
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
  ENTRY_RATE_LIMIT_PER_MINUTE: '100000',
  WEBHOOK_ALLOW_PRIVATE: '1',
});

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const secret = () => `secret-${Math.random().toString(36).slice(2, 12)}`;

async function endpointFor(party: Party) {
  const path = `/hooks/${party.address}`;
  const added = await call(addWebhook, {
    method: 'POST',
    token: party.token,
    body: { url: `${receiver.url.replace('/hooks', '')}${path}`, events: [...WEBHOOK_EVENTS] },
  });
  expect(added.status).toBe(201);
  return () => receiver.received.filter((r) => r.path === path).map((r) => r.body);
}

describe('entries stay secret', () => {
  test(
    'behavior: entrant A learns nothing of B’s entry in OPEN, JUDGING, AWARDED and ' +
      'DISPUTED; after COMPLETED both see both',
    async () => {
      const client = await newClient();
      const [a, b] = [await newAgent(), await newAgent()];
      const [clientHooks, aHooks] = [await endpointFor(client), await endpointFor(a)];
      const { id } = await createBounty(client, { winners: 1 });
      const [aWord, bWord] = [secret(), secret()];
      const aEntry = await enter(a, id, `A's approach ${aWord}`, [
        { filename: 'a.pdf', contentType: 'application/pdf', content: pdf() },
      ]);
      const bEntry = await enter(b, id, `B's approach ${bWord}`, [
        { filename: 'b.pdf', contentType: 'application/pdf', content: pdf() },
      ]);
      expect([aEntry.status, bEntry.status]).toEqual([201, 201]);
      const bFile = bEntry.body.files[0].id as string;
      const download = (who: Party | undefined) =>
        call(fileRoute, { token: who?.token, params: { id, fileId: bFile } });

      const sealed = async (state: string) => {
        const listed = await entriesOf(a, id);
        expect(listed.status, state).toBe(200);
        expect(
          listed.body.items.map((e: { agent: { walletAddress: string } }) => e.agent.walletAddress),
          state,
        ).toEqual([a.address]);
        expect(JSON.stringify(listed.body), state).not.toContain(bWord);
        expect((await download(a)).status, state).toBe(404);
        expect((await download(undefined)).status, state).toBe(404);
        expect((await download(client)).status, state).toBe(200);
        const mission = await getMission(a, id);
        expect(JSON.stringify(mission.body), state).not.toContain(bWord);
        expect(JSON.stringify(mission.body), state).not.toContain(bFile);
        for (const who of [a, undefined]) {
          const searched = await call(listRoute, { token: who?.token, path: `/api/missions?q=${bWord}` });
          expect(searched.body.items, state).toEqual([]);
        }
        await ok(sweep());
        expect(aHooks().join('\n'), state).not.toContain(bWord);
        expect(aHooks().join('\n'), state).not.toContain(bFile);
        expect(
          aHooks().some((body) => body.includes('mission.entry_submitted')),
          state,
        ).toBe(false);
      };

      await sealed('OPEN');
      expect((await entriesOf(client, id)).body.items).toHaveLength(2);
      await closeEntries(id);
      expect((await getMission(a, id)).body.status).toBe('JUDGING');
      await sealed('JUDGING');
      await ok(award(client, id, { winners: [b.address] }));
      await sealed('AWARDED');
      await ok(contestAward(a, id, 'B copied the brief.'));
      await sealed('DISPUTED');
      await ok(resolve(id, { outcome: 'COMPLETED', winners: [b.address] }));

      // COMPLETED: every entrant reads every entry and its files.
      const listed = await entriesOf(a, id);
      expect(listed.body.items.map((e: { agent: { walletAddress: string } }) => e.agent.walletAddress).sort()).toEqual(
        [a.address, b.address].sort(),
      );
      expect((await download(a)).status).toBe(200);
      expect((await download(undefined)).status).toBe(404);
      // A stranger agent who never entered still sees nothing.
      const stranger = await newAgent();
      expect((await download(stranger)).status).toBe(404);
      expect((await entriesOf(stranger, id)).status).toBe(404);

      await ok(sweep());
      const told = (hooks: string[]) => hooks.map((body) => JSON.parse(body).type as string);
      expect(told(clientHooks())).toEqual(
        expect.arrayContaining([
          'mission.entry_submitted',
          'mission.judging',
          'mission.awarded',
          'mission.disputed',
          'mission.completed',
        ]),
      );
      expect(told(aHooks())).toEqual(
        expect.arrayContaining(['mission.judging', 'mission.awarded', 'mission.disputed', 'mission.completed']),
      );
      expect(told(aHooks())).not.toContain('mission.entry_submitted');
    },
  );

  test(
    'error: an agent who did not enter cannot read a bounty’s entries beyond its own (none) ' +
      'or its files, and sees nothing once judging starts',
    async () => {
      const client = await newClient();
      const [a, outsider] = [await newAgent(), await newAgent()];
      const { id } = await createBounty(client);
      const entry = await enter(a, id, `hidden ${secret()}`, [
        { filename: 'a.pdf', contentType: 'application/pdf', content: pdf() },
      ]);
      expect((await entriesOf(outsider, id)).body.items).toEqual([]);
      expect(
        (await call(fileRoute, { token: outsider.token, params: { id, fileId: entry.body.files[0].id } })).status,
      ).toBe(404);
      await closeEntries(id);
      await endWindow(id);
      expect((await getMission(outsider, id)).status).toBe(404);
      expect((await entriesOf(outsider, id)).status).toBe(404);
    },
  );
});
