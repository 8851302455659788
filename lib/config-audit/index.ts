// Config audit, pure half: parse a whole MCP config file, classify each entry, resolve it against a catalog
// index. No database, clock or network here; lib/services/ supplies the catalog look-up and the verdicts.
export * from "./types";
export { ConfigParseError } from "./config-parse-error";
export { parseConfig } from "./parse-config";
export { decodeConfigBytes } from "./decode-config-bytes";
export { ConfigShapeError } from "./find-entries";
export { readConfigDocument, MAX_NESTING } from "./read-config-document";
export { clientFromFilename, HONOURED_MAP_KEYS } from "./client-layouts";
export { findEntries } from "./find-entries";
export { classifyEntry, CANONICAL_NAME, MAX_WRAPPER_DEPTH } from "./classify-entry";
export { splitCommandLine, programName } from "./command-line";
export { parseNpmSpec, parsePypiSpec, npmKey, pypiKey } from "./package-specs";
export { parseImageRef, ociKey } from "./oci-image";
export { checkRemoteUrl, normalizeRemoteUrl, remoteUrlCandidates, redactUrl, isLocalHost } from "./remote-url";
export { buildCatalogIndex, catalogQueryFor, hitsFromServers, smitheryRegistryName, smitheryUrls } from "./catalog-index";
export type { CatalogHit, CatalogIndex, CatalogMatch, CatalogQuery, PackageEcosystem } from "./catalog-index";
export { classifyEntries, resolveEntries, resolveEntry } from "./resolve-entries";
export { auditExitCode, countVerdicts, VERDICTS } from "./exit-code";
export type { Verdict } from "./exit-code";
export { formatAuditText } from "./format-text";
export type { TextLineEntry } from "./format-text";
