// `npm run verify -- <file>`: re-checks an evaluation offline. The file is what
// GET /v1/evaluations/{id} (or POST /v1/preflight) returned; the digests, the
// decision, the reasons and valid_until are recomputed from its facts and policy
// with this engine. Exit 0 when everything matches, 1 when anything differs,
// 2 when the file cannot be read.
import fs from "node:fs";
import { verifyEvaluation } from "@/lib/engine";
import { firstDuplicateMember } from "@/lib/engine/duplicate-member";
import { decodeTextFile } from "./lib/decode-text-file";
import { oneLine } from "./lib/one-line";
import { parseArgsOrExit } from "./lib/parse-args-or-exit";
import { userPath } from "./lib/user-path";

// An evaluation is a few kilobytes. A file far larger is not one, and parsing it could exhaust the heap, a fatal
// error no catch sees; under this size what the checks cannot hold is reported (verifyEvaluation never throws).
const MAX_BYTES = 64 * 2 ** 20;
const TOO_LARGE = `it is over ${MAX_BYTES / 2 ** 20} MiB, and no evaluation is`;
const USAGE = "usage: npm run verify -- <evaluation.json>   (use - for standard input)";
// one file ("-" is standard input) and no options: a second file or an option it would ignore must not pass as verified
const { values, positionals } = parseArgsOrExit({ options: { help: { type: "boolean", short: "h" } }, allowPositionals: true });
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length !== 1) {
  console.error(positionals.length ? `invalid arguments: one evaluation file at a time (got ${positionals.length})` : USAGE);
  process.exit(2);
}
const arg = positionals[0];
const file = arg === "-" ? arg : userPath(arg);
let input: unknown;
let duplicate: string | null;
try {
  // a leading byte order mark is not JSON but many Windows tools write one (and PowerShell 5 writes UTF-16)
  if (file !== "-" && fs.statSync(file).size > MAX_BYTES) throw new Error(TOO_LARGE);
  const bytes = fs.readFileSync(file === "-" ? 0 : file);
  if (bytes.length > MAX_BYTES) throw new Error(TOO_LARGE);
  const text = decodeTextFile(bytes);
  input = JSON.parse(text);
  duplicate = firstDuplicateMember(text);
} catch (err) {
  console.error(`cannot read ${file}: ${oneLine((err as Error).message)}`);
  process.exit(2);
}
if (duplicate !== null) {
  // JSON.parse would keep the last one; a reader may have believed the first
  console.error(`mismatch: ${duplicate} is stated more than once; an evaluation names each member once`);
  process.exit(1);
}
const report = verifyEvaluation(input);
for (const w of report.warnings) console.warn(`warning: ${w}`);
if (report.ok) {
  console.log("verified: digests, decision, reasons, valid_until and the fixed fields match");
  process.exit(0);
}
for (const m of report.mismatches) console.error(`mismatch: ${m}`);
process.exit(1);
