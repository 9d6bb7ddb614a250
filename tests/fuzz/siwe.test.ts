// Random SIWE messages built from the EIP-4361 grammar with one field mutated, signed over the
// original text: verify answers 400 or 401 in the documented shape, never 200, never a 5xx.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { POST as verify } from '@/app/api/auth/verify/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { useTestEnvironment } from '../support/environment';
import { newWallet, requestNonce, siweMessage } from '../support/wallets';
import { expectDocumented } from './properties';

useTestEnvironment({ NONCE_RATE_LIMIT_PER_MINUTE: '100000000', VERIFY_RATE_LIMIT_PER_MINUTE: '100000000' });

const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const wallet = newWallet();

const FIELD_LINES = [/^.* wants you to sign in/, /^0x/, /^URI: /, /^Version: /, /^Chain ID: /, /^Nonce: /, /^Issued At: /, /^Expiration Time: /, /^Not Before: /, /^Request ID: /];

describe('verify with mutated SIWE messages', () => {
  test('behavior: one mutated field is refused 400/401 in the documented shape', async () => {
    const mutation = fc.record({
      line: fc.nat({ max: FIELD_LINES.length - 1 }),
      kind: fc.constantFrom('replace-value', 'append', 'drop-line', 'duplicate-line', 'case'),
      text: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('0', '-1', '99999999999999999999', 'localhost:3000', '2020-01-01T00:00:00Z', '2999-01-01T00:00:00Z', 'évil', '\u0000', ' ')),
    });
    await fc.assert(
      fc.asyncProperty(mutation, fc.boolean(), async (m, withOptional) => {
        const nonce = await requestNonce(wallet.address);
        const original = siweMessage(wallet, nonce, withOptional
          ? { expirationTime: new Date(Date.now() + 600_000), notBefore: new Date(Date.now() - 600_000), requestId: 'r1', resources: ['https://app.example.com/x'] }
          : {});
        const lines = original.split('\n');
        const index = lines.findIndex((l) => FIELD_LINES[m.line]!.test(l));
        const target = index === -1 ? 0 : index;
        const line = lines[target]!;
        if (m.kind === 'replace-value') lines[target] = line.includes(': ') ? `${line.split(': ')[0]}: ${m.text}` : m.text;
        if (m.kind === 'append') lines[target] = line + m.text;
        if (m.kind === 'drop-line') lines.splice(target, 1);
        if (m.kind === 'duplicate-line') lines.splice(target, 0, line);
        if (m.kind === 'case') lines[target] = line === line.toUpperCase() ? line.toLowerCase() : line.toUpperCase();
        const mutated = lines.join('\n');
        if (mutated === original) return;
        const signature = await wallet.signMessage({ message: original });
        const request = new Request('http://localhost:3000/api/auth/verify', {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SOCKET_ADDRESS_HEADER]: '10.8.8.8' },
          body: JSON.stringify({ message: mutated, signature }),
        });
        const response = await verify(request);
        const status = response.status;
        await expectDocumented(response, `${m.kind} line ${m.line}`);
        expect([400, 401], `${m.kind} of line ${target}: ${JSON.stringify(lines[target])}`).toContain(status);
      }),
      { numRuns: Math.max(20, Math.round(TOTAL_RUNS * 0.2)), endOnFailure: true },
    );
  });
});
