// The operator's page for one mission (docs/api.md#operator-missions): read it whole and resolve a dispute.
import type { Metadata } from 'next';
import { OperatorDispute } from '@/app/components/operator-dispute';

export const metadata: Metadata = { title: 'Operator: mission', robots: { index: false, follow: false } };

export default async function OperatorMissionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <OperatorDispute id={id} />;
}
