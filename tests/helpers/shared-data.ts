import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** ../shared beside the repository; CI always has it, a lone clone may not. */
export const SHARED_DIR = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "../../../shared");
export const SNAPSHOT_DIR = path.join(SHARED_DIR, "data/registry-snapshots");
export const hasSharedData = fs.existsSync(SNAPSHOT_DIR);

if (!hasSharedData) {
  console.warn(`[tests] ${SNAPSHOT_DIR} is absent: tests that read the shared registry snapshots are skipped`);
}

/** Snapshot files in date order (their names are ISO dates). */
export function snapshotFiles(): string[] {
  if (!hasSharedData) return [];
  return fs
    .readdirSync(SNAPSHOT_DIR)
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.json(\.gz)?$/.test(f))
    .sort()
    .map((f) => path.join(SNAPSHOT_DIR, f));
}

export function largestSnapshot(): string | null {
  const files = snapshotFiles();
  if (!files.length) return null;
  return files.reduce((a, b) => (fs.statSync(b).size > fs.statSync(a).size ? b : a));
}
