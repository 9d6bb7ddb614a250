'use client';
// A one-click mission transition (accept, approve, cancel, withdraw) with its pending state,
// an optional confirmation, and the API's answer when it refuses.
import { useMissionAction, type MissionAction } from '@/lib/web/use-mission-action';
import { ErrorAlert } from './request-status';

interface Props {
  missionId: string;
  action: MissionAction;
  label: string;
  pendingLabel: string;
  confirm?: string;
  variant?: 'primary' | 'secondary' | 'danger';
}

export function MissionActionButton({ missionId, action, label, pendingLabel, confirm, variant = 'primary' }: Props) {
  const mutation = useMissionAction(missionId, action);
  return (
    <div className="stack">
      <button
        type="button"
        className={variant === 'primary' ? undefined : variant}
        disabled={mutation.isPending}
        onClick={() => {
          if (confirm && !window.confirm(confirm)) return;
          mutation.mutate({});
        }}
      >
        {mutation.isPending ? pendingLabel : label}
      </button>
      {mutation.isError && <ErrorAlert error={mutation.error} title={`Could not ${label.toLowerCase()}`} />}
    </div>
  );
}
