// Start-up of every Next.js server, with or without server.ts (on Vercel there is none). The check
// itself is Node-only, so it is imported only in the Node.js runtime.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') (await import('./lib/start-up')).checkConfigAtStart();
}
