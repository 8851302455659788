import fs from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { readListPage, RegistryEntryError } from "./normalize-registry-entry";

/** Reads a registry dump (.json or .json.gz, either API era) into its raw entries. */
export async function readDumpFile(file: string): Promise<unknown[]> {
  const bytes = await fs.readFile(file);
  return parseDump(bytes);
}

export function parseDump(bytes: Uint8Array): unknown[] {
  // gzip magic number, so a mis-named file still reads
  const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString("utf8") : Buffer.from(bytes).toString("utf8");
  const { entries, nextCursor } = readListPage(JSON.parse(text));
  // A dump is a complete listing: one saved list page that names a next page is not, and written as one it
  // would delist every server on the pages it lacks.
  if (nextCursor) {
    throw new RegistryEntryError(
      `the file is one page of a registry listing (metadata.nextCursor is ${JSON.stringify(nextCursor)}), not a complete dump; crawl the registry with \`npm run ingest -- --full\` instead`,
    );
  }
  return entries;
}
