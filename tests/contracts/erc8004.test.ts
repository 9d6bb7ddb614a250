// The ERC-8004 reference registries (contracts/erc8004/README.md) as our pipeline compiles
// and deploys them: an agent registers an identity with its agentURI, proves a wallet with an
// EIP-712 signature (an EOA's or a contract wallet's), and the operator — not the agent — gives
// feedback that getSummary and readFeedback read back. Through the reference ABI exactly, with
// real signatures on anvil.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Abi, getAddress, getContract, type Hex, keccak256, parseEventLogs, toHex, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { identityRegistryArtifact, minimalUupsArtifact, reputationRegistryArtifact } from '@/lib/chain/artifacts';
import { deployErc8004Registries, type Erc8004Registries } from '@/lib/chain/deploy';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import {
  type ChainContext,
  expectRevert,
  expectRevertReason,
  useContractsChain,
} from '../support/contracts/chain-fixture';

const chain = useContractsChain();
let registries: Erc8004Registries;
beforeAll(async () => {
  const ctx = chain();
  registries = await deployErc8004Registries({
    walletClient: ctx.operator.walletClient,
    publicClient: ctx.publicClient,
  });
});

type Actor = ChainContext['client'];
const AGENT_URI = 'https://taskmarket.example/api/agents/0xabc/registration.json';

function bind(ctx: ChainContext, who: Actor) {
  const client = { public: ctx.publicClient, wallet: who.walletClient };
  return {
    identity: getContract({ address: registries.identityRegistry, abi: identityRegistryArtifact.abi, client }),
    reputation: getContract({ address: registries.reputationRegistry, abi: reputationRegistryArtifact.abi, client }),
  };
}

/** The agent registers with its URI; answers the agentId from the Registered event. */
async function register(ctx: ChainContext, who: Actor, uri = AGENT_URI): Promise<bigint> {
  const receipt = await ctx.mined(bind(ctx, who).identity.write.register([uri]));
  const [registered] = parseEventLogs({
    abi: identityRegistryArtifact.abi,
    logs: receipt.logs,
    eventName: 'Registered',
  });
  expect(registered?.args).toMatchObject({ agentURI: uri, owner: who.address });
  return registered!.args.agentId;
}

/** The EIP-712 AgentWalletSet the new wallet signs, with the registry's domain. */
async function walletProof(
  ctx: ChainContext,
  signer: Actor['account'],
  agentId: bigint,
  newWallet: Hex,
  owner: Hex,
  deadline: bigint,
) {
  return signer.signTypedData({
    domain: {
      name: 'ERC8004IdentityRegistry',
      version: '1',
      chainId: ctx.publicClient.chain!.id,
      verifyingContract: registries.identityRegistry,
    },
    types: {
      AgentWalletSet: [
        { name: 'agentId', type: 'uint256' },
        { name: 'newWallet', type: 'address' },
        { name: 'owner', type: 'address' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'AgentWalletSet',
    message: { agentId, newWallet, owner, deadline },
  });
}

const latest = async (ctx: ChainContext) => (await ctx.publicClient.getBlock()).timestamp;

describe('deployment', () => {
  test(
    'each registry is a proxy upgraded to the reference implementation, owned by the ' + 'deployer, and linked',
    async () => {
      const ctx = chain();
      const { identity, reputation } = bind(ctx, ctx.stranger);
      expect(await identity.read.getVersion()).toBe('2.0.0');
      expect(await reputation.read.getVersion()).toBe('2.0.0');
      expect(await identity.read.name()).toBe('AgentIdentity');
      expect(await identity.read.symbol()).toBe('AGENT');
      expect(await identity.read.owner()).toBe(ctx.operator.address);
      expect(await reputation.read.owner()).toBe(ctx.operator.address);
      expect(await reputation.read.getIdentityRegistry()).toBe(getAddress(registries.identityRegistry));
      // Initialized once: nobody, not even the owner, can initialize again.
      await expect(bind(ctx, ctx.operator).identity.write.initialize()).rejects.toThrow();
      // Only the owner may upgrade.
      const asStranger = getContract({
        address: registries.identityRegistry,
        abi: minimalUupsArtifact.abi,
        client: { public: ctx.publicClient, wallet: ctx.stranger.walletClient },
      });
      await expect(asStranger.write.upgradeToAndCall([zeroAddress, '0x'])).rejects.toThrow();
    },
  );
});

describe('IdentityRegistry', () => {
  test(
    'register(agentURI): the caller owns the new agentId (counted from 0), tokenURI is the ' +
      'URI, agentWallet the caller',
    async () => {
      const ctx = chain();
      const first = await register(ctx, ctx.agent);
      const second = await register(ctx, ctx.stranger, 'ipfs://bafy-second');
      expect([first, second]).toEqual([0n, 1n]);
      const { identity } = bind(ctx, ctx.client);
      expect(await identity.read.ownerOf([first])).toBe(ctx.agent.address);
      expect(await identity.read.tokenURI([first])).toBe(AGENT_URI);
      expect(await identity.read.getAgentWallet([first])).toBe(ctx.agent.address);
      expect(await identity.read.balanceOf([ctx.agent.address])).toBe(1n);
      expect(await identity.read.isAuthorizedOrOwner([ctx.agent.address, first])).toBe(true);
      expect(await identity.read.isAuthorizedOrOwner([ctx.client.address, first])).toBe(false);
      // Only the owner (or an approved operator) changes the URI.
      await expectRevertReason(
        bind(ctx, ctx.stranger).identity.write.setAgentURI([first, 'https://evil.example']),
        'Not authorized',
      );
      await ctx.mined(bind(ctx, ctx.agent).identity.write.setAgentURI([first, 'https://taskmarket.example/v2.json']));
      expect(await identity.read.tokenURI([first])).toBe('https://taskmarket.example/v2.json');
    },
  );

  test(
    "setAgentWallet needs the new wallet's EIP-712 signature, within five minutes; a " + 'transfer clears it',
    async () => {
      const ctx = chain();
      const agentId = await register(ctx, ctx.client);
      const wallet = privateKeyToAccount(ANVIL_KEYS[7]!);
      const { identity } = bind(ctx, ctx.client);
      const deadline = (await latest(ctx)) + 240n;
      // Signed by someone else, or for another owner, it is refused.
      await expectRevertReason(
        identity.write.setAgentWallet([
          agentId,
          wallet.address,
          deadline,
          await walletProof(ctx, ctx.stranger.account, agentId, wallet.address, ctx.client.address, deadline),
        ]),
        'invalid wallet sig',
      );
      await expectRevertReason(
        identity.write.setAgentWallet([
          agentId,
          wallet.address,
          deadline,
          await walletProof(ctx, wallet, agentId, wallet.address, ctx.stranger.address, deadline),
        ]),
        'invalid wallet sig',
      );
      const far = (await latest(ctx)) + 3600n;
      await expectRevertReason(
        identity.write.setAgentWallet([
          agentId,
          wallet.address,
          far,
          await walletProof(ctx, wallet, agentId, wallet.address, ctx.client.address, far),
        ]),
        'deadline too far',
      );
      const proof = await walletProof(ctx, wallet, agentId, wallet.address, ctx.client.address, deadline);
      await expectRevertReason(
        bind(ctx, ctx.stranger).identity.write.setAgentWallet([agentId, wallet.address, deadline, proof]),
        'Not authorized',
      );
      await ctx.mined(identity.write.setAgentWallet([agentId, wallet.address, deadline, proof]));
      expect(await identity.read.getAgentWallet([agentId])).toBe(wallet.address);
      expect(await identity.read.getMetadata([agentId, 'agentWallet'])).toBe(wallet.address.toLowerCase());
      // The metadata key is reserved: setMetadata cannot forge it.
      await expectRevertReason(
        identity.write.setMetadata([agentId, 'agentWallet', ctx.stranger.address]),
        'reserved key',
      );
      // An expired proof is refused.
      await ctx.testClient.increaseTime({ seconds: 600 });
      await ctx.testClient.mine({ blocks: 1 });
      await expectRevertReason(
        identity.write.setAgentWallet([
          agentId,
          ctx.agent.address,
          deadline,
          await walletProof(ctx, ctx.agent.account, agentId, ctx.agent.address, ctx.client.address, deadline),
        ]),
        'expired',
      );
      // A new owner does not inherit the verified wallet.
      await ctx.mined(identity.write.transferFrom([ctx.client.address, ctx.agent.address, agentId]));
      expect(await identity.read.getAgentWallet([agentId])).toBe(zeroAddress);
    },
  );

  test("a contract wallet (ERC-1271) can be proved as the agentWallet by its owner's signature", async () => {
    const ctx = chain();
    const ownedWallet = JSON.parse(
      readFileSync(new URL('../../contracts/out/test/OwnedWallet.json', import.meta.url), 'utf8'),
    ) as { abi: Abi; bytecode: Hex };
    const wallet = getAddress(
      (
        await ctx.mined(
          ctx.agent.walletClient.deployContract({
            abi: ownedWallet.abi,
            bytecode: ownedWallet.bytecode,
            args: [ctx.agent.address],
          }),
        )
      ).contractAddress!,
    );
    const agentId = await register(ctx, ctx.client);
    const deadline = (await latest(ctx)) + 240n;
    const { identity } = bind(ctx, ctx.client);
    await expectRevertReason(
      identity.write.setAgentWallet([
        agentId,
        wallet,
        deadline,
        await walletProof(ctx, ctx.stranger.account, agentId, wallet, ctx.client.address, deadline),
      ]),
      'invalid wallet sig',
    );
    await ctx.mined(
      identity.write.setAgentWallet([
        agentId,
        wallet,
        deadline,
        await walletProof(ctx, ctx.agent.account, agentId, wallet, ctx.client.address, deadline),
      ]),
    );
    expect(await identity.read.getAgentWallet([agentId])).toBe(wallet);
  });
});

describe('ReputationRegistry', () => {
  const feedbackURI = 'https://taskmarket.example/api/missions/m1/feedback.json';
  const feedbackHash = keccak256(toHex('{"mission":"m1"}'));

  test('the operator gives feedback; readFeedback, getLastIndex, getClients and getSummary read it back', async () => {
    const ctx = chain();
    const agentId = await register(ctx, ctx.agent);
    const { reputation } = bind(ctx, ctx.operator);
    const receipt = await ctx.mined(
      reputation.write.giveFeedback([agentId, 100n, 0, 'taskmarket', 'approved', '', feedbackURI, feedbackHash]),
    );
    const [event] = parseEventLogs({
      abi: reputationRegistryArtifact.abi,
      logs: receipt.logs,
      eventName: 'NewFeedback',
    });
    expect(event?.args).toMatchObject({
      agentId,
      clientAddress: ctx.operator.address,
      feedbackIndex: 1n,
      value: 100n,
      valueDecimals: 0,
      tag1: 'taskmarket',
      tag2: 'approved',
      endpoint: '',
      feedbackURI,
      feedbackHash,
    });
    await ctx.mined(
      reputation.write.giveFeedback([agentId, 60n, 0, 'taskmarket', 'contested', '', feedbackURI, feedbackHash]),
    );
    await ctx.mined(
      reputation.write.giveFeedback([agentId, 0n, 0, 'taskmarket', 'resolved-against', '', feedbackURI, feedbackHash]),
    );
    expect(await reputation.read.readFeedback([agentId, ctx.operator.address, 2n])).toEqual([
      60n,
      0,
      'taskmarket',
      'contested',
      false,
    ]);
    expect(await reputation.read.getLastIndex([agentId, ctx.operator.address])).toBe(3n);
    expect(await reputation.read.getClients([agentId])).toEqual([ctx.operator.address]);
    // Our operator's feedback only: (100 + 60 + 0) / 3, rounded toward zero at 0 decimals.
    expect(await reputation.read.getSummary([agentId, [ctx.operator.address], 'taskmarket', ''])).toEqual([3n, 53n, 0]);
    expect(await reputation.read.getSummary([agentId, [ctx.operator.address], 'taskmarket', 'approved'])).toEqual([
      1n,
      100n,
      0,
    ]);
    // Someone else's feedback does not enter a summary that names only the operator.
    await ctx.mined(
      bind(ctx, ctx.stranger).reputation.write.giveFeedback([
        agentId,
        -100n,
        0,
        'taskmarket',
        'approved',
        '',
        '',
        '0x'.padEnd(66, '0') as Hex,
      ]),
    );
    expect(await reputation.read.getSummary([agentId, [ctx.operator.address], 'taskmarket', ''])).toEqual([3n, 53n, 0]);
    expect(await reputation.read.getSummary([agentId, [ctx.operator.address, ctx.stranger.address], '', ''])).toEqual([
      4n,
      15n,
      0,
    ]);
    // The summary must name its clients: a Sybil-proof reading is the caller's choice of whom to trust.
    await expectRevertReason(reputation.read.getSummary([agentId, [], '', '']), 'clientAddresses required');
    const all = await reputation.read.readAllFeedback([agentId, [ctx.operator.address], 'taskmarket', '', false]);
    expect(all[2]).toEqual([100n, 60n, 0n]);
  });

  test(
    'a revoked feedback leaves the summary; the agent cannot rate itself; an unknown agent ' +
      'cannot be rated; values are bounded',
    async () => {
      const ctx = chain();
      const agentId = await register(ctx, ctx.agent);
      const { reputation } = bind(ctx, ctx.operator);
      await ctx.mined(
        reputation.write.giveFeedback([agentId, 100n, 0, 'taskmarket', 'approved', '', feedbackURI, feedbackHash]),
      );
      await ctx.mined(
        reputation.write.giveFeedback([
          agentId,
          0n,
          0,
          'taskmarket',
          'resolved-against',
          '',
          feedbackURI,
          feedbackHash,
        ]),
      );
      await ctx.mined(reputation.write.revokeFeedback([agentId, 2n]));
      expect(await reputation.read.getSummary([agentId, [ctx.operator.address], '', ''])).toEqual([1n, 100n, 0]);
      expect((await reputation.read.readFeedback([agentId, ctx.operator.address, 2n]))[4]).toBe(true);
      await expectRevertReason(
        bind(ctx, ctx.agent).reputation.write.giveFeedback([
          agentId,
          100n,
          0,
          'taskmarket',
          'approved',
          '',
          '',
          feedbackHash,
        ]),
        'Self-feedback not allowed',
      );
      await expectRevert(
        reputation.write.giveFeedback([999n, 100n, 0, 'taskmarket', 'approved', '', '', feedbackHash]),
        'ERC721NonexistentToken',
      );
      await expectRevertReason(
        reputation.write.giveFeedback([agentId, 100n, 19, 'taskmarket', 'approved', '', '', feedbackHash]),
        'too many decimals',
      );
    },
  );
});
