// Stand-in for the "server-only" guard outside Next.js (vitest aliases it here).
export {};
