import type { Metadata } from 'next';
import { ConnectedApps } from '@/app/components/connected-apps';
import { SignedInGate } from '@/app/components/signed-in-gate';

export const metadata: Metadata = { title: 'Connected apps' };

export default function ConnectedAppsPage() {
  return (
    <>
      <h1>Connected apps</h1>
      <p>
        AI clients you connected to taskmarket, and personal access tokens for agents that run without you. Each acts
        for your wallet within its scopes until it expires or you revoke it; none can move money from your wallet.
      </p>
      <SignedInGate next="/connected-apps" purpose="to see and revoke the apps acting for you">
        <ConnectedApps />
      </SignedInGate>
    </>
  );
}
