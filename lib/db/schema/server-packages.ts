import { bigint, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { serverVersions } from "./server-versions";

/** Packages of one server version (npm → jspkg, pypi → pypkg, oci, nuget, mcpb). */
export const serverPackages = pgTable(
  "server_packages",
  {
    versionId: bigint("version_id", { mode: "number" })
      .notNull()
      .references(() => serverVersions.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    ecosystem: text("ecosystem").notNull(),
    registryType: text("registry_type").notNull(),
    registryBaseUrl: text("registry_base_url"),
    identifier: text("identifier").notNull(),
    version: text("version"),
    runtimeHint: text("runtime_hint"),
    transportType: text("transport_type"),
  },
  (t) => [
    primaryKey({ columns: [t.versionId, t.position] }),
    // config audit resolves `npx pkg` / `uvx pkg` to servers by identifier
    index("server_packages_identifier_idx").on(t.ecosystem, t.identifier),
  ],
);

export type ServerPackageRow = typeof serverPackages.$inferSelect;
