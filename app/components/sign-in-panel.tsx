'use client';
// Sign-in with a wallet: connect, be on the right network, sign the SIWE message, verify. Each
// way it can fail gets its own message: refused signature, wrong network, expired nonce.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useSignMessage } from 'wagmi';
import { useRuntimeConfig } from '@/lib/web/runtime-config-context';
import { signInWithEthereum } from '@/lib/web/siwe-sign-in';
import { useSession } from '@/lib/web/use-session';
import { useWallet } from '@/lib/web/use-wallet';
import { classifyWalletError, type WalletProblem } from '@/lib/web/wallet-errors';
import { NetworkNotice } from './network-notice';
import { WalletAddress } from './wallet-address';
import { WalletConnect } from './wallet-connect';

type Step = 'idle' | 'signing' | 'verifying';

export function SignInPanel({ next }: { next: string }) {
  const config = useRuntimeConfig();
  const wallet = useWallet();
  const { session, setSession, refresh } = useSession();
  const signMessage = useSignMessage();
  const router = useRouter();
  const [step, setStep] = useState<Step>('idle');
  const [problem, setProblem] = useState<WalletProblem | null>(null);

  async function onSignIn() {
    if (!wallet.address) return;
    setProblem(null);
    setStep('signing');
    try {
      const user = await signInWithEthereum({
        address: wallet.address,
        chainId: config.chainId,
        statement: config.siwe.statement,
        signMessage: async (message) => {
          const signature = await signMessage.mutateAsync({ message });
          setStep('verifying');
          return signature;
        },
      });
      setSession({ user, passport: null });
      void refresh();
      router.push(next);
      router.refresh();
    } catch (e) {
      setProblem(classifyWalletError(e));
      setStep('idle');
    }
  }

  return (
    <section className="panel stack" aria-labelledby="sign-in-heading">
      <h2 id="sign-in-heading">Sign in with your wallet</h2>
      {session && (
        <p className="alert alert-ok" role="status">
          You are signed in as <WalletAddress address={session.user.walletAddress} />. Signing in again switches
          accounts.
        </p>
      )}
      <p>1. Connect a browser wallet.</p>
      <WalletConnect />
      <NetworkNotice />
      <p>2. Sign a message to prove the wallet is yours. It costs nothing and sends no transaction.</p>
      <button type="button" onClick={onSignIn} disabled={!wallet.isConnected || wallet.wrongNetwork || step !== 'idle'}>
        {step === 'idle' ? 'Sign in' : step === 'signing' ? 'Waiting for your signature…' : 'Checking the signature…'}
      </button>
      <div aria-live="polite">
        {step === 'signing' && <p className="loading">Confirm the signature request in your wallet.</p>}
      </div>
      {problem && (
        <div
          className={`alert ${problem.kind === 'rejected' ? 'alert-warn' : 'alert-error'}`}
          role="alert"
          data-testid="sign-in-problem"
        >
          <p>
            <strong>{TITLES[problem.kind]}</strong>
          </p>
          <p>{problem.message}</p>
        </div>
      )}
    </section>
  );
}

const TITLES: Record<WalletProblem['kind'], string> = {
  rejected: 'Signature declined',
  'wrong-network': 'Wrong network',
  'nonce-expired': 'Sign-in request expired',
  'no-wallet': 'No wallet connected',
  other: 'Sign-in failed',
};
