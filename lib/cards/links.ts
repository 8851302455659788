// Paths that carry a server name as-is, slash included (DESIGN §3: /badge/io.github.owner/name.svg).
// encodeURI leaves "/" alone and escapes only what a URL path cannot hold.

/** The server's page (the web page is built by another issue; the path is fixed here). */
export const serverPagePath = (name: string) => `/servers/${encodeURI(name)}`;

/** The SVG badge of a server. */
export const badgePath = (name: string) => `/badge/${encodeURI(name)}.svg`;
