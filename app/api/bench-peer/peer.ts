import { Redis } from 'ioredis';
import type { SessionOptions } from 'iron-session';
const store = globalThis as unknown as { __peerRedis?: Redis };
export const redis = () => (store.__peerRedis ??= new Redis(process.env.REDIS_URL!));
export const noncePrefix = `${process.env.KV_PREFIX ?? ''}peer:nonce:`;
export interface PeerSession { userId?: string; address?: string }
export const sessionOptions: SessionOptions = { password: process.env.SESSION_SECRET!, cookieName: 'peer_session', ttl: 3600 };
