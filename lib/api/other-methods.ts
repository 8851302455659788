import { ApiError } from "./errors";
import { withCaller, type WrappedRoute } from "./with-caller";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * Handlers for the methods a route does not answer, so they get the contract's
 * Error body (405 method_not_allowed, with Allow) rather than Next's empty 405:
 * `export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");`
 */
export function otherMethods<A extends Method>(...allowed: A[]): Record<Exclude<Method, A>, WrappedRoute<Record<string, string>>> {
  const allow = [...allowed, ...(allowed.includes("GET" as A) ? ["HEAD"] : [])].join(", ");
  const handler = withCaller(async ({ req, url, headers }) => {
    headers.set("allow", allow);
    throw new ApiError("method_not_allowed", `${req.method} is not supported on ${url.pathname}; use ${allowed.join(" or ")}`, { headers: { allow } });
  });
  return Object.fromEntries(METHODS.filter((m) => !allowed.includes(m as A)).map((m) => [m, handler])) as Record<Exclude<Method, A>, WrappedRoute<Record<string, string>>>;
}
