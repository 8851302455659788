import fs from "node:fs";
import { gunzipSync } from "node:zlib";

type Obj = Record<string, any>;

/**
 * An independent reading of a raw snapshot, written without the ingest code so
 * tests compare the catalog against the files themselves.
 */
export function readRawSnapshot(file: string): { name: string; version: string; isLatest: boolean; status: string | null; raw: Obj }[] {
  const body = JSON.parse(gunzipSync(fs.readFileSync(file)).toString("utf8"));
  return body.servers.map((x: Obj) => {
    const server = x.server ?? x;
    const official = (x._meta ?? {})["io.modelcontextprotocol.registry/official"] ?? {};
    return {
      name: server.name,
      version: server.version,
      isLatest: Boolean(official.isLatest ?? official.is_latest),
      status: (x.server ? official.status : (x.status ?? official.status)) ?? null,
      raw: x,
    };
  });
}

export function latestNames(file: string): Set<string> {
  return new Set(readRawSnapshot(file).filter((e) => e.isLatest).map((e) => e.name));
}
