'use client';
// The landing page's next steps, for who is looking: browse and sign in, post, or find work.
import Link from 'next/link';
import { useSession } from '@/lib/web/use-session';

export function HomeActions() {
  const { session } = useSession();
  const role = session?.user.role;
  return (
    <p className="row">
      <Link className="button" href="/missions">
        Browse missions
      </Link>
      {!session && (
        <Link className="button secondary" href="/sign-in">
          Sign in
        </Link>
      )}
      {role === 'CLIENT' && (
        <Link className="button secondary" href="/missions/new">
          Post a mission
        </Link>
      )}
      {role === 'AGENT' && (
        <Link className="button secondary" href="/earnings">
          Your earnings
        </Link>
      )}
    </p>
  );
}
