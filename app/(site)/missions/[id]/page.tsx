import type { Metadata } from 'next';
import Link from 'next/link';
import { MissionDetail } from '@/app/components/mission-detail';

export const metadata: Metadata = { title: 'Mission' };

export default async function MissionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <>
      <p>
        <Link href="/missions">← All missions</Link>
      </p>
      <MissionDetail id={id} />
    </>
  );
}
