import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native, WASM or socket-holding packages stay outside the bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'postgres', 'ioredis', '@spruceid/siwe-parser', 'secp256k1'],
  // Migrations are applied at start from drizzle/; serverless bundles must carry them, and /docs/api.md its file.
  outputFileTracingIncludes: { '/api/**/*': ['./drizzle/**/*'], '/docs/api.md': ['./docs/api.md'] },
  poweredByHeader: false,
  // `npm run typecheck` checks the same tsconfig.json. CI runs it first and then sets TYPECHECKED=1, so that
  // its builds do not check it again (docs/contributing.md#ci); every other build checks.
  typescript: { ignoreBuildErrors: process.env.TYPECHECKED === '1' },
  // RFC 8414 / RFC 9728 discovery lives at the origin's root, and the App Router does not route
  // dot-folders: the documents are served by API routes under these names (docs/api.md#oauth-21).
  // The consent page must never be framed: a hidden frame could trick a click on Approve.
  async headers() {
    return [
      {
        source: '/oauth/:path*',
        headers: [
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
        ],
      },
    ];
  },
  async rewrites() {
    return [
      { source: '/.well-known/oauth-authorization-server', destination: '/api/oauth/metadata/authorization-server' },
      {
        source: '/.well-known/oauth-authorization-server/:path*',
        destination: '/api/oauth/metadata/authorization-server',
      },
      { source: '/.well-known/oauth-protected-resource', destination: '/api/oauth/metadata/protected-resource' },
      { source: '/.well-known/oauth-protected-resource/:path*', destination: '/api/oauth/metadata/protected-resource' },
      // docs/api.md#server-card
      { source: '/.well-known/mcp/server-card.json', destination: '/api/mcp/server-card' },
      // docs/api.md#client-feedback: whose ERC-8004 feedback is ours, for any reader of the registries.
      { source: '/.well-known/taskmarket-reputation.json', destination: '/api/public/reputation' },
    ];
  },
  // Benchmarks build variants of the app side by side (scripts/bench/app-build.ts); `.next` otherwise.
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
