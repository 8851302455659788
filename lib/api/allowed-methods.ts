import { API_OPERATIONS } from "@/lib/openapi/operations";

interface Route {
  pattern: RegExp;
  methods: Set<string>;
}

// Built once from the operation table (which a test holds equal to the route files under app/v1).
let routes: Route[] | null = null;
function table(): Route[] {
  if (routes) return routes;
  const byPath = new Map<string, Set<string>>();
  for (const op of API_OPERATIONS) {
    const set = byPath.get(op.path) ?? new Set<string>();
    set.add(op.method.toUpperCase());
    if (op.method === "get") set.add("HEAD");
    byPath.set(op.path, set);
  }
  routes = [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
    methods: new Set([...methods, "OPTIONS"]),
  }));
  return routes;
}

/**
 * The methods a known /v1 path answers, or null for a path no route claims
 * (those get the JSON 404 of app/v1/[...path]).
 */
export function allowedMethods(pathname: string): string[] | null {
  const route = table().find((r) => r.pattern.test(pathname));
  return route ? [...route.methods] : null;
}
