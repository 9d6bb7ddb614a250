import type { Metadata } from 'next';
import Link from 'next/link';
import { ConfirmationDetail } from '@/app/components/confirmation-detail';
import { SignedInGate } from '@/app/components/signed-in-gate';

export const metadata: Metadata = { title: 'Confirm a payment' };

// docs/api.md#confirmations: the URL a delegated token's release answers with.
export default async function ConfirmationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <>
      <h1>Confirm a payment</h1>
      <p>
        An app acting for you asked to release money held in escrow. Nothing moves until you approve it here. Pending
        requests are also listed in <Link href="/connected-apps">Connected apps</Link>.
      </p>
      <SignedInGate next={`/confirmations/${encodeURIComponent(id)}`} purpose="to see and decide this payment">
        <ConfirmationDetail id={id} />
      </SignedInGate>
    </>
  );
}
