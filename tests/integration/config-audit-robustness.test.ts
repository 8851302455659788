import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as auditPost } from "@/app/v1/audit/route";
import { resetDb } from "../helpers/db";
import { loadFixtureCatalog } from "../helpers/catalog-fixture";
import { SHARED_DIR } from "../helpers/shared-data";

// Malformed bodies never crash the audit route: truncated, deeply nested, huge-string, wrong-type and
// random-byte bodies each get 400 or 413 with the Error body, within one second.

const MAX = 256 * 1024;
let ipCounter = 0;

async function post(body: string | Uint8Array): Promise<{ status: number; json: unknown; ms: number }> {
  ipCounter++;
  const req = new Request("http://localhost/v1/audit", {
    method: "POST",
    // a fresh client IP per call keeps the burst limit out of the property
    headers: { "x-mcp-preflight-socket-ip": `198.19.${ipCounter >> 8}.${ipCounter & 255}` },
    body: body as BodyInit,
  });
  const t0 = performance.now();
  const res = await auditPost(req);
  const json = await res.json();
  return { status: res.status, json, ms: performance.now() - t0 };
}

async function expectRejected(body: string | Uint8Array): Promise<void> {
  const { status, json, ms } = await post(body);
  const shown = typeof body === "string" ? body.slice(0, 120) : `${body.length} bytes`;
  expect([400, 413], `${status} for ${JSON.stringify(shown)}: ${JSON.stringify(json)}`).toContain(status);
  expect(json).toMatchObject({ ok: false, error: status === 413 ? "payload_too_large" : "invalid_request", message: expect.any(String) });
  expect(ms, `took ${ms.toFixed(0)} ms`).toBeLessThan(1000);
}

/** JSON configs to cut short: the fixture shapes, and the shared reference configs that are JSON. */
function jsonSources(): string[] {
  const out = [
    JSON.stringify({ mcpServers: { a: { command: "npx", args: ["-y", "@acme/mcp-weather"] }, b: { url: "https://mcp.example.com/mcp" } } }),
    JSON.stringify({ servers: { a: { type: "stdio", command: "uvx", args: ["bob-mcp"] } }, inputs: [] }, null, 2),
  ];
  const dir = path.join(SHARED_DIR, "reference/configs");
  if (fs.existsSync(dir)) {
    for (const f of fs.readdirSync(dir)) if (f.endsWith(".json")) out.push(fs.readFileSync(path.join(dir, f), "utf8"));
  }
  return out.map((s) => s.trimEnd()).filter((s) => s.startsWith("{"));
}

/** Bytes no text config holds: C0 controls other than tab and line breaks, or a sequence that is not UTF-8. */
function isBinary(bytes: Uint8Array): boolean {
  if (bytes.some((b) => b < 9 || (b > 13 && b < 32) || b === 11 || b === 12)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

beforeAll(async () => {
  const db = await resetDb();
  await loadFixtureCatalog(db);
});

describe("POST /v1/audit never crashes on malformed bodies", () => {
  const runs = { numRuns: 60 };

  it("truncated JSON configs → 400", async () => {
    const sources = jsonSources();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: sources.length - 1 }).chain((i) => fc.tuple(fc.constant(sources[i]), fc.integer({ min: 1, max: sources[i].length - 1 }))),
        async ([text, cut]) => expectRejected(text.slice(0, cut)),
      ),
      runs,
    );
  });

  it("deeply nested bodies (up to 10,000 levels) → 400", async () => {
    await expectRejected("[".repeat(10_000) + "]".repeat(10_000));
    await expectRejected('{"a":'.repeat(10_000) + "1" + "}".repeat(10_000));
    await expectRejected(`{"mcpServers":{"x":{"args":${"[".repeat(10_000)}${"]".repeat(10_000)}}}}`);
    await expectRejected(`a = ${"[".repeat(10_000)}${"]".repeat(10_000)}`);
    await expectRejected(`a: ${"[".repeat(10_000)}`);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 65, max: 10_000 }), fc.constantFrom("[", '{"k":', "{\n  \"mcpServers\": ", "x = [", "- "), fc.boolean(), async (depth, open, close) => {
        const closer = open.startsWith("[") || open.startsWith("x") ? "]" : open.startsWith("-") ? "" : "}";
        const body = open.startsWith("-") ? Array.from({ length: depth }, (_, i) => `${" ".repeat(i)}- [`).join("\n") : open.repeat(depth) + (close ? `1${closer.repeat(depth)}` : "");
        await expectRejected(body.length > MAX ? body.slice(0, MAX) : body);
      }),
      { numRuns: 25 },
    );
  });

  it("YAML nested by indentation or compact `- - -` sequences (no brackets) → 400, every time", async () => {
    // the yaml library recurses once per block level: ~1,000 levels overflowed its stack, and a few such bodies
    // in one process made V8 abort it (FATAL ERROR: RegExpCompiler Allocation failed), taking the server down
    const compact = "mcpServers:\n  - " + "- ".repeat(100_000) + "x\n";
    const indented = Array.from({ length: 500 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n") + " 1\n";
    for (let i = 0; i < 4; i++) {
      for (const body of [compact, indented]) {
        const { status, json } = await post(body);
        expect(status).toBe(400);
        expect((json as { message: string }).message).toMatch(/nested more than 64 levels deep \(line \d+, column \d+\)$/);
      }
    }
  });

  it("huge strings → 413 over 256 KiB, 400 when cut off inside the string", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1_000, max: 400_000 }), fc.constantFrom("x", "é", "\\u0041", "🙂"), fc.boolean(), async (length, unit, raw) => {
        const huge = unit.repeat(Math.ceil(length / unit.length));
        const prefix = raw ? "" : '{"mcpServers":{"a":{"command":"';
        const body = prefix + huge;
        // within the limit the string is left open (an unterminated string or a bare scalar is never a config)
        await expectRejected(body);
      }),
      { numRuns: 30 },
    );
  });

  it("wrongly typed bodies, server maps and entries → 400", async () => {
    const notObject = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.string({ maxLength: 40 }));
    const body = fc.oneof(
      // the top level is not an object
      fc.oneof(notObject, fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 5 })).map((v) => JSON.stringify(v)),
      // a known map key holds something other than a map
      fc.tuple(fc.constantFrom("mcpServers", "servers", "context_servers", "mcp_servers"), fc.oneof(notObject, fc.array(notObject, { minLength: 1, maxLength: 3 }))).map(([k, v]) => JSON.stringify({ [k]: v })),
      // an entry that is not an object
      fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.oneof(notObject, fc.array(notObject, { maxLength: 3 }))).map(([k, v]) => JSON.stringify({ mcpServers: { [k]: v } })),
      // launch fields of the wrong type
      fc.tuple(
        fc.constantFrom("command", "args", "url", "serverUrl", "httpUrl"),
        fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.oneof(fc.dictionary(fc.string(), fc.integer(), { minKeys: 1 }), fc.constant(null)), { minLength: 1, maxLength: 3 })),
      ).map(([field, v]) => JSON.stringify({ mcpServers: { a: { command: "npx", [field]: v } } })),
    );
    await fc.assert(fc.asyncProperty(body, expectRejected), { numRuns: 120 });
  });

  it("random bytes → 400 (or 413 past the limit)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 4096 }), async (bytes) => {
        fc.pre(isBinary(bytes));
        await expectRejected(bytes);
      }),
      runs,
    );
    await expectRejected(new Uint8Array(MAX + 1).fill(0x90));
  });
});
