// The dashboard's frame: the runtime configuration and the session are read once on the server
// (the same lib functions as /api/public/config and /api/auth/me) and handed to the browser.
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { DashboardProviders } from '@/app/components/dashboard-providers';
import { SiteHeader } from '@/app/components/site-header';
import { currentSession } from './_server/current-session';
import { runtimeConfig } from './_server/runtime-config';

export default async function SiteLayout({ children }: { children: ReactNode }) {
  // Rendered per request: the configuration is the running server's, never the build machine's.
  await connection();
  const [config, session] = await Promise.all([runtimeConfig(), currentSession()]);
  return (
    <DashboardProviders config={config} session={session}>
      <SiteHeader />
      <main id="main" className="container">
        {children}
      </main>
    </DashboardProviders>
  );
}
