'use client';
// The line under a mission's title — its state, its reward, its escrow task — as the mission page and
// the operator's dispute page both show it.
import type { MissionView } from '@/lib/missions/schemas';
import { formatAmount } from '@/lib/web/money';
import { useRewardToken } from '@/lib/web/runtime-config-context';
import { MissionStatusBadge } from './mission-status-badge';

export function MissionSummary({ mission }: { mission: MissionView }) {
  const token = useRewardToken();
  return (
    <p className="row">
      <span data-testid="mission-status">
        <MissionStatusBadge status={mission.status} />
      </span>
      <strong>{formatAmount(mission.reward, token)}</strong>
      {mission.onChainTaskId !== null && <span>Escrow task #{mission.onChainTaskId}</span>}
    </p>
  );
}
