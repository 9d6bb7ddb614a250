'use client';
// Any page that failed while rendering: say so and offer to try again.
export default function PageError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div className="alert alert-error" role="alert">
      <p>
        <strong>This page could not be shown.</strong>
      </p>
      <p>Something went wrong on our side. Try again in a moment.</p>
      <button type="button" className="secondary" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
