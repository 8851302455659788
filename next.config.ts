import type { NextConfig } from "next";
import { SERVER_ACTION_MAX_BODY_BYTES } from "./lib/config";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files it loads from its own package directory;
  // bundling it (or the pg driver) breaks those relative loads.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "@neondatabase/serverless"],
  // Migrations are read at start-up from drizzle/; serverless bundles must carry them.
  outputFileTracingIncludes: { "/**": ["./drizzle/**/*"] },
  poweredByHeader: false,
  // The build type-checks only what it ships; tests, benches and scripts are checked by `npm run typecheck`.
  typescript: { tsconfigPath: "tsconfig.next.json" },
  typedRoutes: false,
  // the audit form without JavaScript (lib/config.ts); a larger post is answered by middleware.ts
  experimental: { serverActions: { bodySizeLimit: SERVER_ACTION_MAX_BODY_BYTES } },
  // No page is meant to be framed by another site (the account and watch forms least of all); badges and
  // Open Graph images are embedded as images, which this does not affect.
  async headers() {
    // (X-Frame-Options rather than a CSP frame-ancestors: the badge route sends a CSP of its own)
    // Pages show text published by anyone (titles, descriptions, URLs of listings). React escapes it; should
    // anything ever get through, these keep it from rebasing relative links (<base>), loading plugins or
    // posting a form elsewhere, and keep a browser from reading a JSON or text answer as HTML. Scripts are not
    // restricted here: Next.js inlines its own, which a script-src would need a per-request nonce for.
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "X-Content-Type-Options", value: "nosniff" },
        ],
      },
      {
        source: "/((?!badge/).*)",
        headers: [{ key: "Content-Security-Policy", value: "base-uri 'self'; object-src 'none'; form-action 'self'" }],
      },
    ];
  },
};

export default nextConfig;
