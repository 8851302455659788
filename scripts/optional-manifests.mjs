// Next.js 15.5 reads two optional build manifests on every request to a route handler (the app-route
// runtime's loadManifests, with handleMissing): our builds have neither, and a missing one is read again on
// every request, because the read throws ENOENT before Next's manifest cache can keep anything. Each request
// paid two failed file reads and two Errors with stack traces, about 5% of a preflight's server CPU in
// bench/preflight. Next uses an empty object for a missing one, so writing `{}` in its place changes no
// manifest Next sees and lets its cache keep them (tests/unit/boot/optional-manifests.test.ts checks both).
import fs from "node:fs";
import path from "node:path";

export const OPTIONAL_MANIFESTS = ["server/subresource-integrity-manifest.json", "dynamic-css-manifest"];

/** Writes `{}` for each optional manifest a build in `distDir` lacks; returns the ones written. */
export function fillOptionalManifests(distDir = ".next") {
  // only a finished build: a directory without BUILD_ID is not one, and Next will refuse to serve it anyway
  if (!fs.existsSync(path.join(distDir, "BUILD_ID"))) return [];
  const written = [];
  for (const name of OPTIONAL_MANIFESTS) {
    const file = path.join(distDir, name);
    try {
      // "wx": a manifest the build did write is never replaced
      fs.writeFileSync(file, "{}", { flag: "wx" });
      written.push(name);
    } catch {
      // already there, or a read-only build directory: Next still works, only slower
    }
  }
  return written;
}
