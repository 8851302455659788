export interface ImageRef {
  /** `docker.io/library/redis`, `ghcr.io/owner/image`: registry host and repository, lower-case. */
  name: string;
  tag: string | null;
  digest: string | null;
}

const DOCKER_HUB_ALIASES = new Set(["docker.io", "index.docker.io", "registry-1.docker.io", "registry.hub.docker.com"]);

/**
 * An image reference in the form images are compared by: no registry host → `docker.io`, a single path
 * component → `docker.io/library/<name>`; the tag and digest kept apart (a missing tag is `latest`, floating).
 * null when the text is not an image reference.
 */
export function parseImageRef(ref: string): ImageRef | null {
  let s = ref.trim();
  if (!s || /\s/.test(s) || s.startsWith("-")) return null;
  let digest: string | null = null;
  const at = s.indexOf("@");
  if (at >= 0) {
    digest = s.slice(at + 1);
    s = s.slice(0, at);
  }
  let tag: string | null = null;
  const slash = s.lastIndexOf("/");
  const colon = s.lastIndexOf(":");
  if (colon > slash) {
    tag = s.slice(colon + 1);
    s = s.slice(0, colon);
  }
  const parts = s.split("/");
  if (parts.some((p) => !p)) return null;
  let registry = "docker.io";
  if (parts.length > 1 && (parts[0].includes(".") || parts[0].includes(":") || parts[0] === "localhost")) {
    registry = parts.shift()!.toLowerCase();
  }
  if (DOCKER_HUB_ALIASES.has(registry)) {
    registry = "docker.io";
    if (parts.length === 1) parts.unshift("library");
  }
  if (!parts.every((p) => /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/i.test(p))) return null;
  return { name: `${registry}/${parts.join("/")}`.toLowerCase(), tag: tag || null, digest };
}

/** The comparison key of an image: its normalised name without tag or digest. */
export function ociKey(ref: string): string | null {
  return parseImageRef(ref)?.name ?? null;
}

export function formatImageRef(ref: ImageRef): string {
  return `${ref.name}${ref.digest ? `@${ref.digest}` : `:${ref.tag ?? "latest"}`}`;
}
