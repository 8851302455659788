import { ApiError } from "./errors";
import { withCaller, type WrappedRoute } from "./with-caller";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type Handlers<A extends Method> = Record<Exclude<Method, A> | "OPTIONS", WrappedRoute<Record<string, string>>>;

/**
 * Handlers for the methods a route does not answer, so they get the contract's
 * Error body (405 method_not_allowed, with Allow) rather than Next's empty 405,
 * and an OPTIONS that names what the route does answer (Next's own lists every
 * exported handler, these 405s included):
 * `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");`
 */
export function otherMethods<A extends Method>(...allowed: A[]): Handlers<A> {
  return handlersFor(allowed, allowed.includes("GET" as A));
}

/** otherMethods for a metered GET route, where HEAD is refused (withCaller): Allow does not offer it. */
export function meteredOtherMethods<A extends Method>(...allowed: A[]): Handlers<A> {
  return handlersFor(allowed, false);
}

function handlersFor<A extends Method>(allowed: A[], head: boolean): Handlers<A> {
  const allow = [...allowed, ...(head ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const refuse = withCaller(async ({ req, url, headers }) => {
    headers.set("allow", allow);
    throw new ApiError("method_not_allowed", `${req.method} is not supported on ${url.pathname}; use ${allowed.join(" or ")}`, { headers: { allow } });
  }, { query: "unchecked" });
  const options = async () => new Response(null, { status: 204, headers: { allow } });
  const refused = Object.fromEntries(METHODS.filter((m) => !allowed.includes(m as A)).map((m) => [m, refuse]));
  return { ...refused, OPTIONS: options } as Handlers<A>;
}
