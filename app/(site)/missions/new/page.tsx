import type { Metadata } from 'next';
import { CreateMissionForm } from '@/app/components/create-mission-form';
import { SignedInGate } from '@/app/components/signed-in-gate';

export const metadata: Metadata = { title: 'Post a mission' };

export default function NewMissionPage() {
  return (
    <>
      <h1>Post a mission</h1>
      <SignedInGate next="/missions/new" role="CLIENT" purpose="to post a mission">
        <CreateMissionForm />
      </SignedInGate>
    </>
  );
}
