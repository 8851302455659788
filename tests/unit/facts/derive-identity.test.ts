import { describe, expect, it } from "vitest";
import { deriveIdentity } from "@/lib/facts/derive-identity";

const github = (owner: string | null, observedOwner?: string | null) => ({
  namespace: "io.github.alice",
  repository: { host: "github.com", owner, observedOwner },
  remoteUrls: [],
});

describe("first-party identity of an io.github namespace", () => {
  it("judges the repository by the owner its host reported, when it answered", () => {
    expect(deriveIdentity(github("alice"))).toMatchObject({ first_party: true, basis: "github_namespace_owns_repository" });
    expect(deriveIdentity(github("Alice", "alice"))).toMatchObject({ first_party: true, basis: "github_namespace_owns_repository" });
    // transferred to someone else since it was listed
    expect(deriveIdentity(github("alice", "mallory"))).toMatchObject({ first_party: false, basis: "github_repository_moved_to_another_owner" });
    // listed under an old login, now the namespace's own
    expect(deriveIdentity(github("old-login", "alice"))).toMatchObject({ first_party: true, basis: "github_namespace_owns_moved_repository" });
    expect(deriveIdentity(github("bob"))).toMatchObject({ first_party: false, basis: "github_namespace_differs_from_repository_owner" });
    expect(deriveIdentity(github(null))).toMatchObject({ first_party: null, basis: null });
  });
});
