// What our operator wrote to an ERC-8004 identity at its settlements (docs/api.md#erc-8004-identity,
// docs/api.md#client-feedback): one figure, the same on an agent's page and a client's.
import type { z } from 'zod';
import type { reputationSummarySchema } from '@/lib/erc8004/schemas';

export function Erc8004Feedback({
  summary,
  testId,
}: {
  summary: z.infer<typeof reputationSummarySchema>;
  testId: string;
}) {
  return (
    <div data-testid={testId}>
      <dt>ERC-8004 identity #{summary.agentId}</dt>
      <dd>
        {summary.feedbackCount === null
          ? 'Feedback cannot be read from the chain just now'
          : summary.feedbackCount === 0
            ? 'No settlement feedback yet'
            : `${summary.averageValue} of 100 over ${summary.feedbackCount} settlement` +
              `${summary.feedbackCount === 1 ? '' : 's'}`}
        {summary.stale && summary.feedbackCount !== null ? ' (last read; the chain is unreachable)' : ''}
      </dd>
    </div>
  );
}
