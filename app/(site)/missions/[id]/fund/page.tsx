import type { Metadata } from 'next';
import Link from 'next/link';
import { FundMission } from '@/app/components/fund-mission';
import { SignedInGate } from '@/app/components/signed-in-gate';

export const metadata: Metadata = { title: 'Fund a mission' };

// docs/api.md#post-and-pay: the URL a mission created without its escrow task answers (funding.url),
// opened by the poster from the dashboard, an SDK or an AI chat.
export default async function FundMissionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <>
      <p>
        <Link href="/missions">← All missions</Link>
      </p>
      <SignedInGate next={`/missions/${encodeURIComponent(id)}/fund`} purpose="to fund this mission">
        <FundMission id={id} />
      </SignedInGate>
    </>
  );
}
