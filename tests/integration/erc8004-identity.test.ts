// ERC-8004 identities (docs/api.md#erc-8004-identity) on anvil's reference registries: an agent links
// an identity it owns or is the agentWallet of — checked on-chain — the profile shows the registry's
// summary of our operator's feedback (and survives a dead RPC), and the registration file describes
// the agent with its identity and passport.
import { describe, expect, test } from 'vitest';
import { DELETE as unlinkRoute, POST as linkRoute } from '@/app/api/agents/me/erc8004/route';
import { GET as profileRoute } from '@/app/api/agents/[address]/route';
import { GET as registrationRoute } from '@/app/api/agents/[address]/registration.json/route';
import { GET as configRoute } from '@/app/api/public/config/route';
import { forgetReputationSummaries, registrationFileSchema } from '@/lib/erc8004';
import { agentProfileSchema } from '@/lib/agents/schemas';
import { call } from '../support/http';
import { setEnv, TEST_CHAIN_ID, TEST_DOMAIN, useTestEnvironment } from '../support/environment';
import { agentWithWallet, registerIdentity, registries, setAgentWallet } from '../support/erc8004';
import { newAgent, newClient } from '../support/missions';
import { newWallet } from '../support/wallets';
import { chainReadsOf } from '../support/shared-loads';

const { contracts } = useTestEnvironment({ WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const link = (token: string, agentId: unknown) => call(linkRoute, { token, method: 'POST', body: { agentId } });
const profile = (address: string) => call(profileRoute, { params: { address } });

describe('POST /api/agents/me/erc8004', () => {
  test('default: the owner links its identity; the profile shows the (empty) summary of our feedback', async () => {
    const agent = await agentWithWallet();
    const agentId = await registerIdentity(agent.wallet);
    const linked = await link(agent.token, agentId.toString());
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body).toEqual({
      agentId: agentId.toString(),
      agentRegistry: `eip155:${TEST_CHAIN_ID}:${registries().identityRegistry.toLowerCase()}`,
    });
    const shown = await profile(agent.address);
    expect(shown.status).toBe(200);
    agentProfileSchema.parse(shown.body);
    expect(shown.body.erc8004).toEqual({
      agentId: agentId.toString(),
      feedbackCount: 0,
      averageValue: null,
      stale: false,
    });
  });

  test(
    'behavior: the agentWallet of an identity someone else owns may link it; a JSON number ' + 'id works too',
    async () => {
      const owner = newWallet();
      const agentId = await registerIdentity(owner);
      const agent = await agentWithWallet();
      expect((await link(agent.token, Number(agentId))).status).toBe(403);
      await setAgentWallet(owner, agentId, agent.wallet);
      const linked = await link(agent.token, Number(agentId));
      expect(linked.status, JSON.stringify(linked.body)).toBe(200);
      expect(linked.body.agentId).toBe(agentId.toString());
    },
  );

  test('error: an identity that is not yours is 403 and links nothing', async () => {
    const agentId = await registerIdentity(newWallet());
    const agent = await agentWithWallet();
    const refused = await link(agent.token, agentId.toString());
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/not yours/);
    expect((await profile(agent.address)).body.erc8004).toBeNull();
  });

  test('error: an id never registered is 400; a malformed one 400; a client 403', async () => {
    const agent = await agentWithWallet();
    expect(await link(agent.token, '99999999')).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/does not exist/) },
    });
    expect((await link(agent.token, '-1')).status).toBe(400);
    expect((await link(agent.token, 'abc')).status).toBe(400);
    expect((await link(agent.token, 1.5)).status).toBe(400);
    const client = await newClient();
    expect((await link(client.token, '0')).status).toBe(403);
  });

  test('error: one identity links to one agent: a second agent (its agentWallet) gets 409', async () => {
    const owner = await agentWithWallet();
    const agentId = await registerIdentity(owner.wallet);
    expect((await link(owner.token, agentId.toString())).status).toBe(200);
    const other = await agentWithWallet();
    await setAgentWallet(owner.wallet, agentId, other.wallet);
    expect((await link(other.token, agentId.toString())).status).toBe(409);
  });

  test('error: the chain unreachable is 503; the profile then shows the last figures, marked stale', async () => {
    const agent = await agentWithWallet();
    const agentId = await registerIdentity(agent.wallet);
    expect((await link(agent.token, agentId.toString())).status).toBe(200);
    const rpc = process.env.RPC_URL;
    forgetReputationSummaries();
    setEnv({ RPC_URL: 'http://127.0.0.1:9' });
    try {
      const down = await link(agent.token, agentId.toString());
      expect(down.status).toBe(503);
      const shown = await profile(agent.address);
      expect(shown.status).toBe(200);
      expect(shown.body.erc8004).toEqual({
        agentId: agentId.toString(),
        feedbackCount: null,
        averageValue: null,
        stale: true,
      });
    } finally {
      setEnv({ RPC_URL: rpc });
    }
    expect((await profile(agent.address)).body.erc8004).toMatchObject({ feedbackCount: 0, stale: false });
  });

  test('behavior: concurrent profile reads missing the cache share one summary read', async () => {
    const agent = await agentWithWallet();
    const agentId = await registerIdentity(agent.wallet);
    expect((await link(agent.token, agentId.toString())).status).toBe(200);
    forgetReputationSummaries();
    const { reads, answers } = await chainReadsOf('reputation_summary', registries().reputationRegistry, 6, () =>
      profile(agent.address),
    );
    expect(reads).toBe(1);
    for (const answer of answers)
      expect(answer.body.erc8004).toEqual({
        agentId: agentId.toString(),
        feedbackCount: 0,
        averageValue: null,
        stale: false,
      });
  });

  test('behavior: DELETE unlinks; a second DELETE is 404', async () => {
    const agent = await agentWithWallet();
    const agentId = await registerIdentity(agent.wallet);
    expect((await link(agent.token, agentId.toString())).status).toBe(200);
    expect(await call(unlinkRoute, { token: agent.token, method: 'DELETE' })).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    expect((await profile(agent.address)).body.erc8004).toBeNull();
    expect((await call(unlinkRoute, { token: agent.token, method: 'DELETE' })).status).toBe(404);
  });

  test('error: without an Identity registry configured, linking is 503', async () => {
    const agent = await newAgent();
    setEnv({ ERC8004_IDENTITY_ADDRESS: undefined });
    try {
      expect((await link(agent.token, '0')).status).toBe(503);
    } finally {
      setEnv({ ERC8004_IDENTITY_ADDRESS: contracts.identityRegistry });
    }
  });
});

describe('GET /api/agents/{address}/registration.json', () => {
  test('default: registration-v1 with our MCP endpoint, the agent page, its identity and its passport', async () => {
    const agent = await agentWithWallet();
    const agentId = await registerIdentity(agent.wallet);
    expect((await link(agent.token, agentId.toString())).status).toBe(200);
    const file = await call(registrationRoute, { params: { address: agent.address } });
    expect(file.status).toBe(200);
    const parsed = registrationFileSchema.parse(file.body);
    expect(parsed.type).toBe('https://eips.ethereum.org/EIPS/eip-8004#registration-v1');
    expect(parsed.services).toEqual([
      { name: 'web', endpoint: `https://${TEST_DOMAIN}/agents/${agent.address}` },
      { name: 'MCP', endpoint: `https://${TEST_DOMAIN}/api/mcp` },
    ]);
    expect(parsed.registrations[0]).toEqual({
      agentId: Number(agentId),
      agentRegistry: `eip155:${TEST_CHAIN_ID}:${registries().identityRegistry.toLowerCase()}`,
    });
    expect(parsed.registrations[1]).toMatchObject({
      agentRegistry: `eip155:${TEST_CHAIN_ID}:${contracts.passport.toLowerCase()}`,
    });
    expect(file.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('error: an unknown address, a client, or a malformed address is 404', async () => {
    expect((await call(registrationRoute, { params: { address: newWallet().address } })).status).toBe(404);
    const client = await newClient();
    expect((await call(registrationRoute, { params: { address: client.address } })).status).toBe(404);
    expect((await call(registrationRoute, { params: { address: 'nope' } })).status).toBe(404);
  });
});

describe('GET /api/public/config', () => {
  test('default: names both ERC-8004 registries; null when unset', async () => {
    const shown = await call(configRoute);
    expect(shown.body.contracts).toMatchObject({
      identityRegistry: registries().identityRegistry.toLowerCase(),
      reputationRegistry: registries().reputationRegistry.toLowerCase(),
    });
    setEnv({ ERC8004_IDENTITY_ADDRESS: undefined, ERC8004_REPUTATION_ADDRESS: undefined });
    try {
      expect((await call(configRoute)).body.contracts).toMatchObject({
        identityRegistry: null,
        reputationRegistry: null,
      });
    } finally {
      setEnv({
        ERC8004_IDENTITY_ADDRESS: contracts.identityRegistry,
        ERC8004_REPUTATION_ADDRESS: contracts.reputationRegistry,
      });
    }
  });
});
