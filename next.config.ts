import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files it loads from its own package directory;
  // bundling it (or the pg driver) breaks those relative loads.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "@neondatabase/serverless"],
  // Migrations are read at start-up from drizzle/; serverless bundles must carry them.
  outputFileTracingIncludes: { "/**": ["./drizzle/**/*"] },
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
