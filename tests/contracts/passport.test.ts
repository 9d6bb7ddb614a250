// Passport: soulbound ERC-721 + ERC-5192, one per wallet, minted by the registrar or the wallet itself.
import { describe, expect, test } from 'vitest';
import { keccak256, parseEventLogs, toHex, zeroAddress } from 'viem';
import { passportArtifact } from '@/lib/chain/artifacts';
import { expectRevert, useContractsChain } from '../support/contracts/chain-fixture';

const chain = useContractsChain();

const INTERFACE_IDS = {
  erc165: '0x01ffc9a7',
  erc721: '0x80ac58cd',
  erc721Metadata: '0x5b5e139f',
  accessControl: '0x7965db0b',
  erc5192: '0xb45a3c0e',
} as const;

describe('Passport minting', () => {
  test('the registrar mints for another wallet and ids count up from 1', async () => {
    const { registrar, agent, stranger, mined } = chain();
    expect(await registrar.passport.read.passportOf([agent.address])).toBe(0n);
    await mined(registrar.passport.write.mint([agent.address]));
    await mined(registrar.passport.write.mint([stranger.address]));
    expect(await registrar.passport.read.passportOf([agent.address])).toBe(1n);
    expect(await registrar.passport.read.passportOf([stranger.address])).toBe(2n);
    expect(await registrar.passport.read.ownerOf([1n])).toBe(agent.address);
    expect(await registrar.passport.read.balanceOf([agent.address])).toBe(1n);
  });

  test('a wallet mints its own passport without the registrar', async () => {
    const { agent, mined } = chain();
    const { result } = await agent.passport.simulate.mint([agent.address], { account: agent.account });
    expect(result).toBe(1n);
    await mined(agent.passport.write.mint([agent.address]));
    expect(await agent.passport.read.passportOf([agent.address])).toBe(1n);
  });

  test('a stranger cannot mint a passport for someone else', async () => {
    const { stranger, agent } = chain();
    await expectRevert(stranger.passport.write.mint([agent.address]), 'MintNotAuthorized');
    expect(await agent.passport.read.passportOf([agent.address])).toBe(0n);
  });

  test('a wallet holds at most one passport, whoever mints the second', async () => {
    const { registrar, agent, mined } = chain();
    await mined(agent.passport.write.mint([agent.address]));
    await expectRevert(agent.passport.write.mint([agent.address]), 'AlreadyHasPassport');
    await expectRevert(registrar.passport.write.mint([agent.address]), 'AlreadyHasPassport');
    expect(await agent.passport.read.balanceOf([agent.address])).toBe(1n);
  });

  test('minting emits Transfer from zero and ERC-5192 Locked for the new id', async () => {
    const { registrar, agent, mined } = chain();
    const receipt = await mined(registrar.passport.write.mint([agent.address]));
    const events = parseEventLogs({ abi: passportArtifact.abi, logs: receipt.logs });
    expect(events.map((e) => e.eventName)).toEqual(['Transfer', 'Locked']);
    expect(events[0]!.args).toEqual({ from: zeroAddress, to: agent.address, tokenId: 1n });
    expect(events[1]!.args).toEqual({ tokenId: 1n });
  });

  test('an admin-granted registrar may mint for others', async () => {
    const { registrar, stranger, agent, mined } = chain();
    const role = await registrar.passport.read.REGISTRAR_ROLE();
    expect(role).toBe(keccak256(toHex('REGISTRAR_ROLE')));
    await mined(registrar.passport.write.grantRole([role, stranger.address]));
    await mined(stranger.passport.write.mint([agent.address]));
    expect(await agent.passport.read.passportOf([agent.address])).toBe(1n);
  });

  test('the constructor makes the registrar admin and registrar', async () => {
    const { registrar, stranger } = chain();
    const role = await registrar.passport.read.REGISTRAR_ROLE();
    const admin = await registrar.passport.read.DEFAULT_ADMIN_ROLE();
    expect(await registrar.passport.read.hasRole([role, registrar.address])).toBe(true);
    expect(await registrar.passport.read.hasRole([admin, registrar.address])).toBe(true);
    expect(await registrar.passport.read.hasRole([role, stranger.address])).toBe(false);
    expect(await registrar.passport.read.name()).toBe('taskmarket Agent Passport');
    expect(await registrar.passport.read.symbol()).toBe('TMAP');
  });
});

describe('Passport is soulbound', () => {
  test('locked is true for a minted passport and reverts for an unknown id', async () => {
    const { registrar, agent, mined } = chain();
    await mined(registrar.passport.write.mint([agent.address]));
    expect(await agent.passport.read.locked([1n])).toBe(true);
    await expectRevert(agent.passport.read.locked([2n]), 'ERC721NonexistentToken');
  });

  test('the owner cannot transfer with transferFrom or either safeTransferFrom', async () => {
    const { registrar, agent, stranger, mined } = chain();
    await mined(registrar.passport.write.mint([agent.address]));
    const { write } = agent.passport;
    await expectRevert(write.transferFrom([agent.address, stranger.address, 1n]), 'Soulbound');
    await expectRevert(write.safeTransferFrom([agent.address, stranger.address, 1n]), 'Soulbound');
    await expectRevert(write.safeTransferFrom([agent.address, stranger.address, 1n, '0x']), 'Soulbound');
    expect(await agent.passport.read.ownerOf([1n])).toBe(agent.address);
  });

  test('nor can the registrar move a passport it minted', async () => {
    const { registrar, agent, mined } = chain();
    await mined(registrar.passport.write.mint([agent.address]));
    await expectRevert(registrar.passport.write.transferFrom([agent.address, registrar.address, 1n]), 'Soulbound');
  });

  test('approve and setApprovalForAll are refused', async () => {
    const { registrar, agent, stranger, mined } = chain();
    await mined(registrar.passport.write.mint([agent.address]));
    await expectRevert(agent.passport.write.approve([stranger.address, 1n]), 'ApprovalsDisabled');
    await expectRevert(agent.passport.write.setApprovalForAll([stranger.address, true]), 'ApprovalsDisabled');
    expect(await agent.passport.read.getApproved([1n])).toBe(zeroAddress);
    expect(await agent.passport.read.isApprovedForAll([agent.address, stranger.address])).toBe(false);
  });
});

describe('Passport supportsInterface', () => {
  test('answers ERC-5192, ERC-721, ERC-721 metadata, ERC-165 and AccessControl', async () => {
    const { registrar } = chain();
    for (const id of Object.values(INTERFACE_IDS)) {
      expect(await registrar.passport.read.supportsInterface([id]), id).toBe(true);
    }
  });

  test('denies other interface ids', async () => {
    const { registrar } = chain();
    for (const id of ['0x12345678', '0xffffffff', '0x00000000'] as const) {
      expect(await registrar.passport.read.supportsInterface([id]), id).toBe(false);
    }
  });
});
