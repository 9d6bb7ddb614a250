// The funding page's reading of GET /api/missions/{id}/funding (docs/api.md#post-and-pay): the typed
// data as JSON carries its uint256 fields as decimal strings and may list EIP712Domain; what the
// wallet signs from it must be the very authorization the server checks, and the task's expiry is
// read whichever form it comes in.
import { hashTypedData, recoverTypedDataAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { expirySeconds, type MissionFunding, typedDataOf } from '@/lib/web/mission-funding';

const poster = privateKeyToAccount(generatePrivateKey());
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const escrow = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const nonce = `0x${'ab'.repeat(32)}` as const;
const types = {
  ReceiveWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
};
// What the server checks: its own typed data, with bigints.
const server = {
  domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: token },
  types,
  primaryType: 'ReceiveWithAuthorization',
  message: { from: poster.address, to: escrow, value: 25_000_000n, validAfter: 0n, validBefore: 1_795_900_000n, nonce },
} as const;

/** The API's answer, as JSON: uint256 as decimal strings, EIP712Domain listed as some servers do. */
function answer(): MissionFunding {
  const json = JSON.parse(JSON.stringify(server, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
  json.types.EIP712Domain = [
    { name: 'name', type: 'string' },
    { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ];
  return {
    typedData: json,
    escrow,
    token,
    amount: '25000000',
    expiresAt: '1796000000',
    ref: nonce,
    status: 'awaiting_signature',
    relayAvailable: true,
  };
}

describe('the funding page signs what the server checks', () => {
  test(
    'default: the signature of the JSON typed data recovers to the poster over the server’s ' + 'typed data',
    async () => {
      const signable = typedDataOf(answer());
      expect(hashTypedData(signable)).toBe(hashTypedData(server));
      const signature = await poster.signTypedData(signable);
      expect(await recoverTypedDataAddress({ ...server, signature })).toBe(poster.address);
    },
  );

  test('behavior: the task expiry reads as unix seconds from a decimal string, a number or an ISO time', () => {
    expect(expirySeconds('1796000000')).toBe(1_796_000_000n);
    expect(expirySeconds(1_796_000_000)).toBe(1_796_000_000n);
    expect(expirySeconds('2026-11-28T18:11:00.000Z')).toBe(BigInt(Date.parse('2026-11-28T18:11:00.000Z') / 1000));
  });
});
