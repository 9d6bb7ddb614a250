// Measures the memory of 100,000 live nonces in the in-memory KV (issue target: ≤ 50 MB).
// Run with `npm run bench:memory` (node --expose-gc, so the heap is measured after collection).
import { randomBytes } from 'node:crypto';
import { createMemoryKv } from '../../lib/kv/memory';

const COUNT = 100_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

async function main() {
  gc!();
  const before = process.memoryUsage().heapUsed;
  const kv = createMemoryKv();
  for (let i = 0; i < COUNT; i++) {
    // The same shapes as lib/auth/nonces.ts: a 32-hex-digit nonce bound to a lowercase address.
    const stored = await kv.putCapped(
      `tm:nonce:${randomBytes(16).toString('hex')}`,
      `0x${randomBytes(20).toString('hex')}`,
      300_000,
      'tm:nonces:live',
      COUNT,
    );
    if (!stored) throw new Error(`refused at ${i}`);
  }
  gc!();
  const used = process.memoryUsage().heapUsed - before;
  console.log(`${COUNT.toLocaleString('en')} live nonces in memory: ${(used / 1024 / 1024).toFixed(1)} MB of heap`);
  await kv.close();
}

void main();
