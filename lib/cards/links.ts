// Paths that carry a server name as-is, slash included (DESIGN §3: /badge/io.github.owner/name.svg).
// Each part between slashes is escaped on its own: "/" stays a separator, while a name's "?", "#", "&" …
// are escaped too (encodeURI leaves them as they are, which cuts the path at a "?" or "#").

/** A server name as URL path segments: its slashes kept, everything else a path segment cannot hold escaped. */
export const namePath = (name: string) => name.split("/").map(encodeURIComponent).join("/");

/** The server's page (the web page is built by another issue; the path is fixed here). */
export const serverPagePath = (name: string) => `/servers/${namePath(name)}`;

/** The SVG badge of a server. */
export const badgePath = (name: string) => `/badge/${namePath(name)}.svg`;

/** The server name a /badge/ or /og/ route handler serves: the request's raw path after `prefix`, each
 * segment decoded once, then `suffix` removed ("" when the path does not end with it). Next.js hands route
 * handlers their catch-all params already decoded, so decoding those again would turn a name's "%25" into
 * "%"; the raw path is decoded exactly once. */
export function nameFromRequestPath(url: string, prefix: string, suffix: string): string {
  const path = new URL(url).pathname;
  if (!path.startsWith(prefix)) return "";
  const decoded = decodeSegments(path.slice(prefix.length).split("/"));
  return decoded.endsWith(suffix) ? decoded.slice(0, decoded.length - suffix.length) : "";
}

/** Path segments decoded once each and joined with "/" (a segment that is not valid percent-encoding as is). */
export function decodeSegments(segments: string[]): string {
  return segments
    .map((seg) => {
      try {
        return decodeURIComponent(seg);
      } catch {
        return seg;
      }
    })
    .join("/");
}
