// Start-up of every Next.js server, with or without server.ts (on Vercel there is none): the
// configuration checked once, then tracing started when an OTLP endpoint is set (docs/api.md#observability).
// Then the webhook fan-out's watcher. All are Node-only, so they are imported only in the Node.js runtime.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  (await import('./lib/start-up')).checkConfigAtStart();
  const { config } = await import('./lib/config');
  (await import('./lib/observability/start-tracing')).startTracing(config().otel);
  // With a shared database, every instance joins a webhook fan-out another announced (docs/api.md#webhook-fan-out).
  (await import('./lib/webhooks/deliver')).watchFanOut(config());
}
