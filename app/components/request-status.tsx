// The loading and error states every request shows: a polite live region while waiting, an
// alert with the API's message (and a retry when one makes sense) when it failed.
import { describeApiError } from '@/lib/web/api-client';

export function LoadingMessage({ label }: { label: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      {label}…
    </p>
  );
}

export function ErrorAlert({ error, title, onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  return (
    <div className="alert alert-error" role="alert">
      {title && (
        <p>
          <strong>{title}</strong>
        </p>
      )}
      <p>{describeApiError(error)}</p>
      {detailsOf(error).length > 0 && (
        <ul>
          {detailsOf(error).map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
      {onRetry && (
        <button type="button" className="secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

function detailsOf(error: unknown): string[] {
  const details = (error as { details?: unknown }).details;
  return Array.isArray(details) ? (details as string[]) : [];
}
