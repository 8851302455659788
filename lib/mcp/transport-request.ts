/** A media type's `type/subtype` (RFC 9110 §5.6.2 tokens), at the start of a value or after a list comma. */
const MEDIA_TYPE = /(^|,)(\s*)([!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+)/g;

/** Accept or Content-Type with every type/subtype in lower case; parameters as sent. */
export function lowerCaseMediaTypes(value: string): string {
  return value.replace(MEDIA_TYPE, (_, sep: string, space: string, type: string) => sep + space + type.toLowerCase());
}

/**
 * The request as the SDK's transport should see it. Media types are case-insensitive (RFC 9110 §8.3.1,
 * §12.5.1), but the transport looks for "application/json" and "text/event-stream" case-sensitively and
 * answered `Accept: Application/JSON, Text/Event-Stream` with 406 and `Content-Type: Application/JSON` with 415.
 * The body is left out: the route has read and parsed it already and hands it over as parsedBody.
 */
export function withLowerCaseMediaTypes(req: Request): Request {
  let headers: Headers | undefined;
  for (const name of ["accept", "content-type"]) {
    const value = req.headers.get(name);
    const lowered = value === null ? null : lowerCaseMediaTypes(value);
    if (lowered !== null && lowered !== value) (headers ??= new Headers(req.headers)).set(name, lowered);
  }
  return headers ? new Request(req.url, { method: req.method, headers }) : req;
}
