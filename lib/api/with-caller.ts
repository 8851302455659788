import { randomUUID } from "node:crypto";
import { errorResponse, json } from "./respond";

export interface RouteContext<P> {
  req: Request;
  url: URL;
  params: P;
  requestId: string;
  /** Headers the adapter adds to the response (quota headers, cache headers, …). */
  headers: Headers;
}

type Handler<P> = (ctx: RouteContext<P>) => Promise<unknown>;

/**
 * Wraps a route handler: the handler parses input, calls one service function and
 * returns data (sent as JSON 200) or a Response; every thrown error becomes the
 * contract's Error body.
 */
export function withCaller<P = Record<string, string>>(handler: Handler<P>) {
  return async (req: Request, ctx?: { params?: Promise<P> }): Promise<Response> => {
    const requestId = randomUUID();
    const headers = new Headers();
    try {
      const params = ((await ctx?.params) ?? {}) as P;
      const result = await handler({ req, url: new URL(req.url), params, requestId, headers });
      if (result instanceof Response) {
        headers.forEach((v, k) => {
          if (!result.headers.has(k)) result.headers.set(k, v);
        });
        return result;
      }
      return json(result, { status: 200, headers });
    } catch (err) {
      return errorResponse(err, requestId, Object.fromEntries(headers));
    }
  };
}
