import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native, WASM or socket-holding packages stay outside the bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'postgres', 'ioredis', '@spruceid/siwe-parser', 'secp256k1'],
  // Migrations are applied at start from drizzle/; serverless bundles must carry them.
  outputFileTracingIncludes: { '/api/**/*': ['./drizzle/**/*'] },
  poweredByHeader: false,
};

export default nextConfig;
