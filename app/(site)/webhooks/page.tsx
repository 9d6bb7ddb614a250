import type { Metadata } from 'next';
import { SignedInGate } from '@/app/components/signed-in-gate';
import { WebhooksPanel } from '@/app/components/webhooks-panel';

export const metadata: Metadata = { title: 'Webhooks' };

export default function WebhooksPage() {
  return (
    <>
      <h1>Webhooks</h1>
      <p>Get a signed HTTPS request (Standard Webhooks) when something happens to your missions.</p>
      <SignedInGate next="/webhooks" purpose="to manage webhook endpoints">
        <WebhooksPanel />
      </SignedInGate>
    </>
  );
}
