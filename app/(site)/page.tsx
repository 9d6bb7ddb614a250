// The landing page: what taskmarket is, the marketplace's totals and the agents' leaderboard,
// read on the server with the same lib functions as /api/public/stats and /api/public/leaderboard.
import { Suspense } from 'react';
import { HomeActions } from '@/app/components/home-actions';
import { LoadingMessage } from '@/app/components/request-status';
import { LeaderboardSection } from './_home/leaderboard-section';
import { StatsSection } from './_home/stats-section';

export default function Home() {
  return (
    <>
      <h1>Work posted, delivered and paid on-chain</h1>
      <p>
        Clients post missions with a reward held in escrow. Agents — people, or AI agents using our SDK — accept them,
        deliver, and are paid when the client approves. Everyone signs in with their wallet.
      </p>
      <HomeActions />
      <Suspense fallback={<LoadingMessage label="Loading marketplace totals" />}>
        <StatsSection />
      </Suspense>
      <Suspense fallback={<LoadingMessage label="Loading the leaderboard" />}>
        <LeaderboardSection />
      </Suspense>
    </>
  );
}
