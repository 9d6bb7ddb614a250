import type { Metadata } from 'next';
import { AnalyticsView } from '@/app/components/analytics-view';
import { SignedInGate } from '@/app/components/signed-in-gate';

export const metadata: Metadata = { title: 'Analytics' };

export default function AnalyticsPage() {
  return (
    <>
      <h1>Analytics</h1>
      <SignedInGate next="/analytics" role="CLIENT" purpose="to see the analytics of your missions">
        <AnalyticsView />
      </SignedInGate>
    </>
  );
}
