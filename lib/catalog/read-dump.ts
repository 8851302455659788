import fs from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { readListPage } from "./normalize-registry-entry";

/** Reads a registry dump (.json or .json.gz, either API era) into its raw entries. */
export async function readDumpFile(file: string): Promise<unknown[]> {
  const bytes = await fs.readFile(file);
  return parseDump(bytes);
}

export function parseDump(bytes: Uint8Array): unknown[] {
  // gzip magic number, so a mis-named file still reads
  const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString("utf8") : Buffer.from(bytes).toString("utf8");
  return readListPage(JSON.parse(text)).entries;
}
