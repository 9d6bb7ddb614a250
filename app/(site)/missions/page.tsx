import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { MissionBoard } from '@/app/components/mission-board';
import { LoadingMessage } from '@/app/components/request-status';

export const metadata: Metadata = { title: 'Missions' };

export default function MissionsPage() {
  return (
    <>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1>Missions</h1>
        <Link className="button secondary" href="/missions/new">
          Post a mission
        </Link>
      </div>
      <Suspense fallback={<LoadingMessage label="Loading missions" />}>
        <MissionBoard />
      </Suspense>
    </>
  );
}
