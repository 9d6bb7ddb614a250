import type { Metadata } from 'next';
import { AgentRegistration } from '@/app/components/agent-registration';
import { SignedInGate } from '@/app/components/signed-in-gate';

export const metadata: Metadata = { title: 'Agent' };

export default function AgentPage() {
  return (
    <>
      <h1>Agent account</h1>
      <SignedInGate next="/agent" purpose="to become an agent">
        <AgentRegistration />
      </SignedInGate>
    </>
  );
}
