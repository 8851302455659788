/**
 * The methods each /v1 path answers, as plain data so the edge middleware can read it without loading the
 * schemas. tests/unit/api/method-not-allowed.test.ts holds it equal to the operation table
 * (lib/openapi/operations.ts), which another test holds equal to the route files.
 */
export const ROUTE_METHODS: Record<string, string[]> = {
  "/v1/policies": ["GET"],
  "/v1/preflight": ["POST"],
  "/v1/stamp": ["GET"],
  "/v1/evaluations": ["GET"],
  "/v1/evaluations/{id}": ["GET"],
  "/v1/search": ["GET"],
  "/v1/server": ["GET"],
  "/v1/lookalikes": ["GET"],
  "/v1/stats": ["GET"],
  "/v1/recent": ["GET"],
  "/v1/coverage": ["GET"],
  "/v1/changes": ["GET"],
  "/v1/watch": ["POST", "GET", "DELETE"],
  "/v1/watch/deliveries": ["GET"],
  "/v1/watch/rotate-secret": ["POST"],
  "/v1/credits": ["GET"],
  "/v1/audit": ["POST"],
  "/v1/resolve": ["POST"],
  "/v1/health": ["GET"],
  "/v1/openapi.json": ["GET"],
};

const ROUTES = Object.entries(ROUTE_METHODS).map(([path, methods]) => ({
  pattern: new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
  methods: [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"],
}));

/** The methods a known /v1 path answers, or null for a path no route claims (the JSON 404 route takes those). */
export function allowedMethods(pathname: string): string[] | null {
  return ROUTES.find((r) => r.pattern.test(pathname))?.methods ?? null;
}
