/** A repository URL reduced to the identity the harvester looks up. */
export interface RepositoryRef {
  /** Normalised URL: the unique key of the repositories table. */
  url: string;
  host: string | null;
  owner: string | null;
  name: string | null;
}

// Hosts whose owner/name are case-insensitive, so one repository has one key.
const CASE_INSENSITIVE_HOSTS = new Set(["github.com", "gitlab.com", "bitbucket.org", "codeberg.org"]);

export function normalizeRepositoryUrl(raw: string): RepositoryRef {
  let u: URL;
  try {
    u = new URL(raw.trim().replace(/^git\+/, "").replace(/^git@([^:]+):/, "https://$1/"));
  } catch {
    return { url: raw.trim(), host: null, owner: null, name: null };
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return { url: raw.trim(), host: null, owner: null, name: null };
  const host = u.hostname.toLowerCase().replace(/^www\./, "");
  const parts = u.pathname.split("/").filter(Boolean);
  if (parts.length < 2) return { url: `https://${host}${u.pathname.replace(/\/+$/, "")}`, host, owner: null, name: null };
  let owner = parts[0];
  let name = parts[1].replace(/\.git$/i, "");
  if (CASE_INSENSITIVE_HOSTS.has(host)) {
    owner = owner.toLowerCase();
    name = name.toLowerCase();
  }
  return { url: `https://${host}/${owner}/${name}`, host, owner, name };
}
