// `npm run verify -- <file>`: re-checks an evaluation offline. The file is what
// GET /v1/evaluations/{id} (or POST /v1/preflight) returned; the digests, the
// decision, the reasons and valid_until are recomputed from its facts and policy
// with this engine. Exit 0 when everything matches, 1 when anything differs,
// 2 when the file cannot be read.
import fs from "node:fs";
import { verifyEvaluation } from "@/lib/engine";
import { oneLine } from "./lib/one-line";
import { userPath } from "./lib/user-path";

// "-" is standard input; other arguments starting with "-" are options (none yet)
const arg = process.argv.slice(2).find((a) => a === "-" || !a.startsWith("-"));
if (!arg) {
  console.error("usage: npm run verify -- <evaluation.json>   (use - for standard input)");
  process.exit(2);
}
const file = arg === "-" ? arg : userPath(arg);
let input: unknown;
try {
  // a leading byte order mark is not JSON but many Windows tools write one; the API reads bodies past it too
  input = JSON.parse(fs.readFileSync(file === "-" ? 0 : file, "utf8").replace(/^\uFEFF/, ""));
} catch (err) {
  console.error(`cannot read ${file}: ${oneLine((err as Error).message)}`);
  process.exit(2);
}
const report = verifyEvaluation(input);
for (const w of report.warnings) console.warn(`warning: ${w}`);
if (report.ok) {
  console.log("verified: digests, decision, reasons, valid_until and the fixed fields match");
  process.exit(0);
}
for (const m of report.mismatches) console.error(`mismatch: ${m}`);
process.exit(1);
