import type { Metadata } from 'next';
import { StandingAllowance } from '@/app/components/standing-allowance';
import { SignedInGate } from '@/app/components/signed-in-gate';

export const metadata: Metadata = { title: 'Standing allowance' };

// docs/api.md#standing-allowance: the person signs, once, what AI clients may fund for them without asking.
export default function StandingAllowancePage() {
  return (
    <>
      <h1>Standing allowance</h1>
      <p>
        Let the apps you connected post funded missions for you without a signature each time — within caps the escrow
        contract itself enforces: at most so much per mission, so much per day, so much in all, until a date you choose.
        Each app also needs its own funding limit, set in Connected apps. Revoke it here at any time.
      </p>
      <SignedInGate next="/account/allowance" purpose="to see and set your standing allowance">
        <StandingAllowance />
      </SignedInGate>
    </>
  );
}
