/**
 * First-party identity from registry evidence only. The registry proves the
 * namespace (GitHub login for io.github.*, DNS for reverse domains); we link it
 * to what the server serves only where the link is itself public evidence:
 *  - io.github.<login> with a GitHub repository owned by <login> → first party;
 *    a GitHub repository owned by someone else → not first party. The owner is the one the host reported
 *    when it answered (a repository transferred since it was listed is judged by its new owner), else the
 *    one the listed URL names;
 *  - a DNS namespace whose every remote endpoint is on that domain → first party.
 * Anything else is not established (null), never guessed.
 */
export interface IdentityInput {
  namespace: string;
  /** `observedOwner`: the owner the code host reported for the listed repository, when it answered that it exists. */
  repository: { host: string | null; owner: string | null; observedOwner?: string | null } | null;
  remoteUrls: string[];
}

export interface DerivedIdentity {
  namespace_verification: "github" | "dns" | null;
  first_party: boolean | null;
  basis: string | null;
}

export function namespaceVerification(namespace: string): "github" | "dns" | null {
  if (/^io\.github\.[^.]+$/i.test(namespace)) return "github";
  // The registry proves every other namespace by DNS or HTTP on the reversed domain.
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(namespace)) return "dns";
  return null;
}

/** "com.example.mcp" → "mcp.example.com". */
export function namespaceDomain(namespace: string): string {
  return namespace.toLowerCase().split(".").reverse().join(".");
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

export function deriveIdentity(input: IdentityInput): DerivedIdentity {
  const verification = namespaceVerification(input.namespace);
  if (verification === "github") {
    const login = input.namespace.slice("io.github.".length).toLowerCase();
    const repo = input.repository;
    const owner = (repo?.observedOwner ?? repo?.owner)?.toLowerCase();
    if (repo?.host === "github.com" && owner) {
      const moved = Boolean(repo.observedOwner && repo.owner && repo.observedOwner.toLowerCase() !== repo.owner.toLowerCase());
      if (owner === login) {
        return { namespace_verification: verification, first_party: true, basis: moved ? "github_namespace_owns_moved_repository" : "github_namespace_owns_repository" };
      }
      return {
        namespace_verification: verification,
        first_party: false,
        basis: moved ? "github_repository_moved_to_another_owner" : "github_namespace_differs_from_repository_owner",
      };
    }
    return { namespace_verification: verification, first_party: null, basis: null };
  }
  if (verification === "dns" && input.remoteUrls.length) {
    const domain = namespaceDomain(input.namespace);
    const hosts = input.remoteUrls.map(hostOf);
    if (hosts.every((h) => h !== null && (h === domain || h.endsWith(`.${domain}`)))) {
      return { namespace_verification: verification, first_party: true, basis: "dns_namespace_serves_every_remote" };
    }
  }
  return { namespace_verification: verification, first_party: null, basis: null };
}
