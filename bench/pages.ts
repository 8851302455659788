// bench/pages: first-load JavaScript of each page, compressed, from the Next.js build output.
// What a browser must fetch before a page is interactive on a cold cache: the root chunks every page loads,
// plus the JS of the page and of every layout, loading, error and not-found boundary on its path, as
// .next/app-build-manifest.json lists them; sizes are gzip (level 9, as Next prints them) and brotli.
// Goal (issue 10): the server page under 150 KB gzip; printed as a ratio to the home page's.
//   npx tsx bench/pages.ts         (builds first when the build is missing or older than a source)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import buildIfStale from "../e2e/helpers/global-setup";

const BUDGET_BYTES = 150 * 1024;
const NEXT = ".next";

buildIfStale();

const manifest = JSON.parse(fs.readFileSync(path.join(NEXT, "app-build-manifest.json"), "utf8")) as { pages: Record<string, string[]> };
const build = JSON.parse(fs.readFileSync(path.join(NEXT, "build-manifest.json"), "utf8")) as { rootMainFiles: string[] };

const sizes = new Map<string, { raw: number; gzip: number; brotli: number }>();
function sizeOf(file: string) {
  let s = sizes.get(file);
  if (!s) {
    const buf = fs.readFileSync(path.join(NEXT, file));
    s = {
      raw: buf.length,
      gzip: zlib.gzipSync(buf, { level: 9 }).length,
      brotli: zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
    sizes.set(file, s);
  }
  return s;
}

/** The JS files a first visit of `route` (e.g. "/servers/[...name]") loads. */
function firstLoadFiles(route: string): string[] {
  const segments = route.split("/").filter(Boolean);
  const prefixes = [""];
  for (let i = 0; i < segments.length; i++) prefixes.push(`/${segments.slice(0, i + 1).join("/")}`);
  const keys = prefixes.flatMap((p) => ["layout", "template", "loading", "error", "not-found"].map((f) => `${p}/${f}`));
  keys.push(`${route === "/" ? "" : route}/page`);
  const files = new Set(build.rootMainFiles);
  for (const k of keys) for (const f of manifest.pages[k] ?? []) files.add(f);
  return [...files].filter((f) => f.endsWith(".js"));
}

function measure(route: string) {
  const files = firstLoadFiles(route);
  const total = { raw: 0, gzip: 0, brotli: 0 };
  for (const f of files) {
    const s = sizeOf(f);
    total.raw += s.raw;
    total.gzip += s.gzip;
    total.brotli += s.brotli;
  }
  return { route, files: files.length, ...total };
}

const routes = Object.keys(manifest.pages)
  .filter((k) => k.endsWith("/page"))
  .map((k) => k.slice(0, -"/page".length) || "/")
  .sort();
const rows = routes.map(measure);
const kb = (n: number) => (n / 1024).toFixed(1);
console.log("bench/pages: first-load JavaScript per page (KB; gzip level 9 and brotli 11 of the chunks the route loads)");
console.log(`${"page".padEnd(28)} ${"files".padStart(5)} ${"raw".padStart(8)} ${"gzip".padStart(8)} ${"brotli".padStart(8)}`);
for (const r of rows) console.log(`${r.route.padEnd(28)} ${String(r.files).padStart(5)} ${kb(r.raw).padStart(8)} ${kb(r.gzip).padStart(8)} ${kb(r.brotli).padStart(8)}`);

const home = rows.find((r) => r.route === "/")!;
const server = rows.find((r) => r.route === "/servers/[...name]")!;
const verdict = server.gzip <= BUDGET_BYTES ? "within" : "OVER";
console.log(
  `\nserver page /servers/<name>: ${kb(server.gzip)} KB gzip (${kb(server.brotli)} KB brotli), ${verdict} the 150 KB budget; ` +
    `${(server.gzip / home.gzip).toFixed(3)}× the home page's ${kb(home.gzip)} KB`,
);
fs.mkdirSync("bench/out", { recursive: true });
fs.writeFileSync(
  "bench/out/pages.json",
  `${JSON.stringify({ budget_bytes: BUDGET_BYTES, server_page: server, home_page: home, ratio_to_home: Number((server.gzip / home.gzip).toFixed(3)), pages: rows }, null, 2)}\n`,
);
if (server.gzip > BUDGET_BYTES) process.exitCode = 1;
