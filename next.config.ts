import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native, WASM or socket-holding packages stay outside the bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'postgres', 'ioredis', '@spruceid/siwe-parser', 'secp256k1'],
  // Migrations are applied at start from drizzle/; serverless bundles must carry them.
  outputFileTracingIncludes: { '/api/**/*': ['./drizzle/**/*'] },
  poweredByHeader: false,
  // Benchmarks build variants of the app side by side (scripts/bench/app-build.ts); `.next` otherwise.
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
