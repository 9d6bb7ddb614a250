'use client';
// Questions and answers on a mission (docs/api.md#comments): public while it is OPEN, its parties' once
// accepted. Lists the conversation and lets a signed-in viewer who may take part write.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { commentSchema, type CommentView } from '@/lib/marketplace/schemas';
import { ApiRequestError, apiFetch, describeApiError } from '@/lib/web/api-client';
import { useSession } from '@/lib/web/use-session';
import { formatTime } from './mission-timeline';
import { ErrorAlert, LoadingMessage } from './request-status';
import { WalletAddress } from './wallet-address';

const ROLE = { OWNER: 'Client', AGENT: 'Agent', USER: 'Asked by', OPERATOR: 'Operator' } as const;

export function MissionComments({ missionId }: { missionId: string }) {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const key = ['mission-comments', missionId];
  const path = `/api/missions/${encodeURIComponent(missionId)}/comments`;
  const list = useQuery({ queryKey: key, queryFn: () => apiFetch<{ items: CommentView[] }>(`${path}?limit=100`) });
  const [body, setBody] = useState('');
  const post = useMutation({
    mutationFn: (text: string) => apiFetch<CommentView>(path, { method: 'POST', json: { body: text } }),
    onSuccess: () => {
      setBody('');
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });

  if (list.isPending) return <LoadingMessage label="Loading the questions" />;
  if (list.isError) {
    // Once accepted, the conversation is the parties' own: say so rather than show an error.
    if (list.error instanceof ApiRequestError && (list.error.status === 403 || list.error.status === 404)) {
      return <p className="hint">Questions on this mission are between its client and its agent.</p>;
    }
    return <ErrorAlert error={list.error} title="Could not load the questions" onRetry={() => void list.refetch()} />;
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (body.trim()) post.mutate(body.trim());
  };
  return (
    <div className="stack">
      {list.data.items.length === 0 ? (
        <p className="hint">No questions yet.</p>
      ) : (
        <ol className="stack" aria-label="Questions and answers" data-testid="comments">
          {list.data.items.map((c) => (
            <li key={c.id} className="panel">
              <p className="hint">
                {ROLE[c.role]} {c.author && <WalletAddress address={c.author.walletAddress} />} ·{' '}
                {formatTime(c.createdAt)}
              </p>
              <p style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{c.body}</p>
            </li>
          ))}
        </ol>
      )}
      {session ? (
        <form onSubmit={submit} className="stack" aria-label="Ask or answer">
          <label htmlFor="comment-body">Your question or answer</label>
          <textarea
            id="comment-body"
            value={body}
            maxLength={commentSchema.shape.body.maxLength!}
            rows={3}
            onChange={(e) => setBody(e.target.value)}
          />
          <button type="submit" disabled={post.isPending || !body.trim()}>
            Post
          </button>
          {post.isError && (
            <p className="alert alert-error" role="alert">
              {describeApiError(post.error)}
            </p>
          )}
        </form>
      ) : (
        <p className="hint">Sign in to ask a question.</p>
      )}
    </div>
  );
}
