import fs from "node:fs";
import path from "node:path";
import pg from "pg";

/** A fresh database of the given name on the bench Postgres server (BENCH_DATABASE_URL, TEST_DATABASE_URL or local). */
export async function freshBenchDatabase(name: string): Promise<string> {
  const base = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
  const admin = new URL(base);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  try {
    await c.query(`drop database if exists "${name}" with (force)`);
    await c.query(`create database "${name}"`);
  } finally {
    await c.end();
  }
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The largest shared registry snapshot, or null (with a message) when ../shared is absent. */
export function largestSharedSnapshot(bench: string): string | null {
  const dir = path.resolve("../shared/data/registry-snapshots");
  if (!fs.existsSync(dir)) {
    console.log(`${bench}: ${dir} is absent; nothing to measure`);
    return null;
  }
  return fs
    .readdirSync(dir)
    .map((f) => path.join(dir, f))
    .reduce((a, b) => (fs.statSync(b).size > fs.statSync(a).size ? b : a));
}

/** freshBenchDatabase, or null with a message when no Postgres server answers (the bench then has nothing to measure). */
export async function freshBenchDatabaseOrSkip(name: string, bench: string): Promise<string | null> {
  try {
    return await freshBenchDatabase(name);
  } catch (err) {
    console.log(`${bench}: no Postgres server (${(err as Error).message}); skipped`);
    return null;
  }
}
