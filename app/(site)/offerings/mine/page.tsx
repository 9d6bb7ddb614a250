import type { Metadata } from 'next';
import { MyOfferings } from '@/app/components/my-offerings';

export const metadata: Metadata = { title: 'My offerings' };

// docs/api.md#offerings: an agent's own offerings — publish, deactivate.
export default function MyOfferingsPage() {
  return (
    <>
      <h1>My offerings</h1>
      <MyOfferings />
    </>
  );
}
