import fs from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { readListPage, RegistryEntryError } from "./normalize-registry-entry";

function gunzip(bytes: Uint8Array): string {
  try {
    return gunzipSync(bytes).toString("utf8");
  } catch (err) {
    throw new RegistryEntryError(`the gzip file is cut short or corrupt (${(err as Error).message}): download or copy it again`);
  }
}

/** Reads a registry dump (.json or .json.gz, either API era) into its raw entries. */
export async function readDumpFile(file: string): Promise<unknown[]> {
  const bytes = await fs.readFile(file);
  return parseDump(bytes);
}

export function parseDump(bytes: Uint8Array): unknown[] {
  // gzip magic number, so a mis-named file still reads
  const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzip(bytes) : Buffer.from(bytes).toString("utf8");
  // zlib's and JSON's own words ("unexpected end of file", "Unexpected end of JSON input") do not say which
  // of the two, or that the file is simply empty
  if (!text.trim()) throw new RegistryEntryError("the file is empty");
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new RegistryEntryError(`the file is not valid JSON (${(err as Error).message})`);
  }
  const { entries, nextCursor } = readListPage(doc);
  // A dump is a complete listing: one saved list page that names a next page is not, and written as one it
  // would delist every server on the pages it lacks.
  if (nextCursor) {
    throw new RegistryEntryError(
      `the file is one page of a registry listing (metadata.nextCursor is ${JSON.stringify(nextCursor)}), not a complete dump; crawl the registry with \`npm run ingest -- --full\` instead`,
    );
  }
  return entries;
}
