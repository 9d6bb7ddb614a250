// Webhook signing secrets: made here (Standard Webhooks' whsec_ form), shown to their owner once,
// and kept sealed (AES-256-GCM under a key derived from SESSION_SECRET), so a database dump alone
// cannot forge our signatures. Rotating SESSION_SECRET makes endpoints need new secrets.
import 'server-only';
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../config';

// A KeyObject, not a Buffer: Node 24 sets a cipher up from a Buffer key ~15-20 µs slower (iron-seal.ts).
const keyOf = (cfg: Config) =>
  createSecretKey(Buffer.from(hkdfSync('sha256', cfg.sessionSecret, 'taskmarket', 'webhook-secrets', 32)));

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export function sealSecret(cfg: Config, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(cfg), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64')).join('.');
}

export function unsealSecret(cfg: Config, sealed: string): string {
  const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64')) as [Buffer, Buffer, Buffer];
  const decipher = createDecipheriv('aes-256-gcm', keyOf(cfg), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}
