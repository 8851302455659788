import type { NextConfig } from "next";

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
};

export default nextConfig;
