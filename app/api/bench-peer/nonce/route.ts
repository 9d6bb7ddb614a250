import { generateNonce } from 'siwe';
import { noncePrefix, redis } from '../peer';
export async function POST(request: Request) {
  await request.json();
  const nonce = generateNonce();
  await redis().set(noncePrefix + nonce, '1', 'EX', 300);
  return Response.json({ nonce });
}
