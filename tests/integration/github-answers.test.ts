import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchReposGraphql } from "@/lib/sources/github";
import { startHttpServer } from "../helpers/http-server";

// What a GitHub GraphQL batch answer means (reference/upstream-apis.md §2.3): each alias holds the repository's
// fields, or null with an error. An alias holding an object without the repository's name is no repository we
// can read: stored as found, it was a live repository "renamed to undefined", its flags read from nothing.
describe("fetchReposGraphql", () => {
  let gh: Awaited<ReturnType<typeof startHttpServer>>;
  const saved = { url: process.env.GITHUB_API_URL, graphql: process.env.GITHUB_GRAPHQL_URL, token: process.env.GITHUB_TOKEN, allow: process.env.OUTBOUND_ALLOW_HOSTS };
  beforeAll(async () => {
    gh = await startHttpServer((_req, res) => {
      const good = { databaseId: 1, nameWithOwner: "acme/good", stargazerCount: 3, pushedAt: null, isArchived: false, isDisabled: false, isFork: false, isPrivate: false, owner: { __typename: "User", login: "acme" } };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: { r0: good, r1: { isArchived: true }, r2: {} } }));
    });
    process.env.GITHUB_API_URL = gh.url;
    delete process.env.GITHUB_GRAPHQL_URL;
    process.env.GITHUB_TOKEN = "test-token";
    process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries({ GITHUB_API_URL: saved.url, GITHUB_GRAPHQL_URL: saved.graphql, GITHUB_TOKEN: saved.token, OUTBOUND_ALLOW_HOSTS: saved.allow })) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await gh?.close();
  });

  it("leaves an alias without the repository's name to REST, never stores it as found", async () => {
    const { answers } = await fetchReposGraphql(
      [
        { owner: "acme", name: "good" },
        { owner: "acme", name: "nameless" },
        { owner: "acme", name: "empty" },
      ],
      { retries: 0 },
    );
    expect(answers.get("acme/good")).toMatchObject({ kind: "found", nameWithOwner: "acme/good" });
    expect(answers.get("acme/nameless")).toMatchObject({ kind: "fallback", error: expect.stringMatching(/not a repository/) });
    expect(answers.get("acme/empty")).toMatchObject({ kind: "fallback" });
  });
});
