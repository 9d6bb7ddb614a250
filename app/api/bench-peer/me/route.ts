import { eq } from 'drizzle-orm';
import { cookies } from 'next/headers';
import { getIronSession } from 'iron-session';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { type PeerSession, sessionOptions } from '../peer';
export async function GET() {
  const session = await getIronSession<PeerSession>(await cookies(), sessionOptions);
  if (!session.userId) return Response.json({ error: 'Unauthorized' }, { status: 401 });
  const db = await getDb();
  const [user] = await db.select({ id: users.id, walletAddress: users.walletAddress, role: users.role }).from(users).where(eq(users.id, session.userId));
  if (!user) return Response.json({ error: 'Unauthorized' }, { status: 401 });
  return Response.json({ user });
}
