// `npm run db:migrate`: applies drizzle/ to the configured database (DATABASE_URL, else PGlite
// under DATA_DIR) and exits — the step a deployment pipeline (a Vercel build, a release job) runs
// before new instances start. It takes the same advisory lock instances take when they start, so
// running it while instances start is safe: one migrates, the others wait and find nothing to do.
import { ConfigError } from '../lib/config';
import { closeDb, getDb } from '../lib/db/client';

try {
  await getDb();
  await closeDb();
  console.log('db:migrate: the database is at the newest migration');
} catch (error) {
  const cause = ((error as Error).cause as Error | undefined)?.message;
  console.error(`db:migrate: ${error instanceof ConfigError ? error.message : (cause ?? (error as Error).message)}`);
  process.exit(1);
}
