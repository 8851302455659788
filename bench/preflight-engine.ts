// Engine throughput: evaluate() over a few thousand varied fact sets on one core, for a fixed time, against a
// baseline measured in the same run on the same facts (JSON.stringify + SHA-256, i.e. roughly the cost of
// hashing the facts once without canonical JSON or any rule). Goal: more than 20,000 evaluations per second.
// Run: npx tsx bench/preflight-engine.ts [seconds per phase, default 4]
import { createHash } from "node:crypto";
import { evaluate } from "@/lib/engine/evaluate";
import type { Facts, PackageFacts } from "@/lib/engine/facts";
import { POLICIES } from "@/lib/engine/policies";
import { deepFreeze } from "@/lib/cache/deep-freeze";
import { buildFacts, daysAgo, hoursAgo, jspkg, NOW, otherArtifact, pypkg, remote } from "@/tests/unit/engine/facts-builder";

const GOAL = 20_000;
const FACT_SETS = 4_000;
const PHASE_MS = Math.max(0.5, Number(process.argv[2] ?? 4)) * 1000;

// Deterministic variety (mulberry32), so runs are comparable.
let seed = 0x5eed;
function rand(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const maybe = <T>(p: number, yes: T, no: T): T => (rand() < p ? yes : no);

function variedFacts(i: number): Facts {
  const packages: PackageFacts[] = [];
  const n = Math.floor(rand() * 4);
  for (let k = 0; k < n; k++) {
    const kind = pick(["jspkg", "jspkg", "pypkg", "oci"] as const);
    const identifier = `pkg-${i}-${k}`;
    if (kind === "oci") packages.push(otherArtifact("oci", `ghcr.io/acme/${identifier}`));
    else {
      const make = kind === "jspkg" ? jspkg : pypkg;
      packages.push(
        make({
          identifier,
          exists: maybe(0.9, true, pick([false, null])),
          deprecated: kind === "jspkg" ? maybe(0.9, false, pick([true, null])) : null,
          advisories: maybe(0.8, [], pick([null, [{ id: `GHSA-${i}`, summary: "advisory", severity: "high" }]])),
        }),
      );
    }
  }
  return buildFacts({
    server: { name: `io.github.owner${i}/server-${i}`, namespace: `io.github.owner${i}`, registry_status: maybe(0.95, "active", "deprecated") },
    identity: {
      first_party: pick([true, true, false, null]),
      brand_claims: maybe(0.1, [{ brand: "Acme", verified_by_namespace: pick([true, false, null]), impersonation: rand() < 0.3 }], []),
    },
    repository: maybe(0.9, { exists: maybe(0.95, true, false), archived: rand() < 0.1, pushed_at: daysAgo(Math.floor(rand() * 400)), stars: Math.floor(rand() * 5000) }, null),
    packages,
    remotes: Array.from({ length: Math.floor(rand() * 3) }, (_, k) =>
      remote({ url: `https://r${k}.owner${i}.example/mcp`, live: pick([true, true, false, null]), observed_at: hoursAgo(Math.floor(rand() * 96)) }),
    ),
    lookalikes: maybe(0.2, { count: 1, names: [`io.github.other/server-${i}`] }, { count: 0, names: [] }),
  });
}

function timed(label: string, op: (i: number) => void): number {
  for (let i = 0; i < 2_000; i++) op(i); // warm-up
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < PHASE_MS) {
    for (let k = 0; k < 256; k++) op(ops++);
    elapsed = performance.now() - start;
  }
  const perSecond = (ops / elapsed) * 1000;
  console.log(`${label.padEnd(34)} ${Math.round(perSecond).toLocaleString("en-US").padStart(10)} /s  (${ops} in ${(elapsed / 1000).toFixed(2)} s)`);
  return perSecond;
}

const facts = Array.from({ length: FACT_SETS }, (_, i) => variedFacts(i));
const decisions = { PASS: 0, REVIEW: 0, BLOCK: 0 };
for (const [i, f] of facts.entries()) decisions[evaluate({ facts: f, policy: POLICIES[i % 3], now: NOW }).decision]++;
const bytes = facts.reduce((n, f) => n + JSON.stringify(f).length, 0) / facts.length;
console.log(`preflight engine bench: ${FACT_SETS} fact sets (avg ${Math.round(bytes)} bytes JSON), decisions over the three policies ${JSON.stringify(decisions)}`);
console.log(`node ${process.version}, one core, ${PHASE_MS / 1000} s per phase`);

let sink = 0;
const baseline = timed("baseline JSON.stringify+sha256", (i) => {
  sink += createHash("sha256").update(JSON.stringify(facts[i % FACT_SETS])).digest("hex").length;
});
const engine = timed("engine evaluate()", (i) => {
  sink += evaluate({ facts: facts[i % FACT_SETS], policy: POLICIES[i % 3], now: NOW }).reasons.length;
});

// As the service calls it: facts kept by the record memo are deep-frozen, and their canonical text and digest
// are worked out once per kept object (lib/engine/digest.ts canonicalFacts), so an evaluation of kept facts is
// the rules, the decision and the decision-input digest. The goal is judged on the line above, which
// canonicalizes and hashes the facts in every call (a server's first evaluation after its facts were loaded).
const kept = facts.map((f) => deepFreeze(structuredClone(f)));
const keptEngine = timed("engine evaluate(), kept facts", (i) => {
  sink += evaluate({ facts: kept[i % FACT_SETS], policy: POLICIES[i % 3], now: NOW }).reasons.length;
});

console.log(`ratio engine / baseline: ${(engine / baseline).toFixed(3)} (kept facts: ${(keptEngine / baseline).toFixed(3)})`);
console.log(`goal > ${GOAL.toLocaleString("en-US")} evaluations/s: ${engine > GOAL ? "met" : "NOT met"}${sink < 0 ? "" : ""}`);
process.exitCode = engine > GOAL ? 0 : 1;
