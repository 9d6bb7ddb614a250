// The runtime configuration for the dashboard: the very object GET /api/public/config answers.
import 'server-only';
import { config } from '@/lib/config';
import { publicConfig } from '@/lib/public';
import type { RuntimeConfig } from '@/lib/web/session';

export function runtimeConfig(): Promise<RuntimeConfig> {
  return publicConfig(config());
}
