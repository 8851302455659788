import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { serverPackages, serverRemotes, serverVersions, servers } from "@/lib/db/schema";
import type { CatalogHit, CatalogQuery } from "@/lib/config-audit";
import { describedVersion } from "@/lib/facts/described-version";

/**
 * The catalog side of config resolution: listed servers (not delisted) whose DESCRIBED version (the latest, else
 * the one lib/facts/described-version.ts picks for a server seen only through non-latest rows) has one of the
 * queried remote URLs or packages, and listed servers with one of the queried names. The described version is
 * the one the card and the audit's verdict read, so an entry resolves by exactly the packages and remotes they
 * name: reading only latest versions left such a server unresolvable by its package or URL. Four queries at
 * most, run together; the pure resolver (lib/config-audit) normalises and ranks what comes back.
 *
 * npm names are matched through the (ecosystem, identifier) index; PyPI names are compared PEP 503-normalised
 * and images by their repository name, both within their ecosystem's range of that index. Remote URLs are
 * compared lower-cased (the registry keeps URLs as published, `https://MCP.Example.com/mcp`), which the (url)
 * index cannot serve; the resolver's index then compares scheme and host lower-cased and the path as written.
 */
export async function lookupCatalogServers(db: Queryable, q: CatalogQuery): Promise<CatalogHit[]> {
  // the lateral pick runs only for a server without a latest (a one-time filter), as in the facts read
  const described = describedVersion(db);
  const isDescribed = and(isNull(servers.delistedAt), sql`${serverVersions.id} = coalesce(${servers.latestVersionId}, ${described.id})`);
  const server = { name: servers.name, status: servers.registryStatus };
  // when several listings match, the resolver prefers the one published most recently
  const listed = { ...server, publishedAt: serverVersions.publishedAt };

  const packagesWhere = (ecosystem: string, match: SQL) => and(eq(serverPackages.ecosystem, ecosystem), match);
  const packageQuery = (where: SQL | undefined) =>
    db
      .select({ ...listed, ecosystem: serverPackages.ecosystem, identifier: serverPackages.identifier })
      .from(serverPackages)
      .innerJoin(serverVersions, eq(serverVersions.id, serverPackages.versionId))
      .innerJoin(servers, eq(servers.id, serverVersions.serverId))
      .leftJoinLateral(described, sql`true`)
      .where(and(where, isDescribed));

  const packageMatches: SQL[] = [];
  if (q.jspkg.length) {
    // npm names are lower-case since 2017; the lower() arm finds the few older mixed-case ones
    packageMatches.push(packagesWhere("jspkg", inArray(sql`lower(${serverPackages.identifier})`, q.jspkg))!);
  }
  if (q.pypkg.length) {
    packageMatches.push(packagesWhere("pypkg", inArray(sql`lower(regexp_replace(${serverPackages.identifier}, '[-_.]+', '-', 'g'))`, q.pypkg))!);
  }
  if (q.oci.length) {
    // stored identifiers carry a registry host and often a tag; match on the repository path, normalise in JS
    const paths = q.oci.map((name) => `%${name.replace(/^docker\.io\/(library\/)?/, "").replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    packageMatches.push(packagesWhere("oci", sql`lower(${serverPackages.identifier}) like any(array[${sql.join(paths.map((p) => sql`${p}`), sql`, `)}])`)!);
  }

  const [remoteRows, packageRows, nameRows] = await Promise.all([
    q.remoteUrls.length
      ? db
          .select({ ...listed, url: serverRemotes.url })
          .from(serverRemotes)
          .innerJoin(serverVersions, eq(serverVersions.id, serverRemotes.versionId))
          .innerJoin(servers, eq(servers.id, serverVersions.serverId))
          .leftJoinLateral(described, sql`true`)
          .where(and(inArray(sql`lower(${serverRemotes.url})`, [...new Set(q.remoteUrls.map((u) => u.toLowerCase()))]), isDescribed))
      : [],
    packageMatches.length ? packageQuery(packageMatches.length === 1 ? packageMatches[0] : sql`(${sql.join(packageMatches, sql` or `)})`) : [],
    q.names.length ? db.select(server).from(servers).where(and(inArray(servers.name, q.names), isNull(servers.delistedAt))) : [],
  ]);

  const hits: CatalogHit[] = [];
  for (const r of remoteRows) hits.push({ via: "remote", url: r.url, server: { name: r.name, status: r.status, publishedAt: r.publishedAt } });
  for (const r of packageRows) {
    hits.push({ via: "package", ecosystem: r.ecosystem, identifier: r.identifier, server: { name: r.name, status: r.status, publishedAt: r.publishedAt } });
  }
  for (const r of nameRows) hits.push({ via: "name", server: { name: r.name, status: r.status } });
  return hits;
}
