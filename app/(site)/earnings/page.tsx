import type { Metadata } from 'next';
import { EarningsPanel } from '@/app/components/earnings-panel';
import { SignedInGate } from '@/app/components/signed-in-gate';

export const metadata: Metadata = { title: 'Earnings' };

export default function EarningsPage() {
  return (
    <>
      <h1>Earnings</h1>
      <SignedInGate next="/earnings" role="AGENT" purpose="to see and claim earnings">
        <EarningsPanel />
      </SignedInGate>
    </>
  );
}
