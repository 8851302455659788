import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifyEntry, ConfigParseError, normalizeRemoteUrl, ociKey, parseConfig, parseNpmSpec, pypiKey, type EntryIdentity } from "@/lib/config-audit";
import { SHARED_DIR } from "../../helpers/shared-data";

// Every real config in ../shared/reference/configs/ must parse (or fail) as INDEX.tsv's parse_status says,
// be recognised as its `layout` when given its source path, hold `entry_count` entries, and classify to the
// identities its `entries` column lists. The column is free text written for people; parseIndexEntries below
// reads the forms it uses. Disagreements with the index are settled in INDEX_OVERRIDES, each with its reason.

const CONFIG_DIR = path.join(SHARED_DIR, "reference/configs");
const INDEX = path.join(CONFIG_DIR, "INDEX.tsv");
const hasIndex = fs.existsSync(INDEX);
if (!hasIndex) console.warn(`[tests] ${INDEX} is absent: the reference config tests are skipped`);

interface IndexRow {
  file: string;
  layout: string;
  source_path: string;
  entry_count: number;
  entries: string;
  parse_status: string;
}

function readIndex(): IndexRow[] {
  const [header, ...lines] = fs.readFileSync(INDEX, "utf8").trim().split("\n");
  const cols = header.split("\t");
  return lines.map((line) => {
    const cells = line.split("\t");
    const row = Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? ""]));
    return { ...row, entry_count: Number(row.entry_count) } as unknown as IndexRow;
  });
}

/** What the index says about one entry. `key` null: any entry (the "8x local path" form). */
interface Expected {
  key: string | null;
  kind: "jspkg" | "pypkg" | "oci" | "remote" | "local" | "other" | "smithery";
  identifier?: string;
  version?: string | null;
  /** `url(…)` entries the index marks loopback or unresolvable. */
  unresolvable?: boolean;
  honoured?: boolean;
}

/** Splits on `;` outside parentheses and brackets. */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of text) {
    if (c === "(" || c === "[") depth++;
    if (c === ")" || c === "]") depth--;
    if (c === ";" && depth === 0) {
      out.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function describe1(key: string | null, desc: string, honoured: boolean | undefined): Expected {
  let m: RegExpMatchArray | null;
  if ((m = desc.match(/^npm (\S+)/))) {
    const spec = parseNpmSpec(m[1]);
    if (spec.kind !== "registry") throw new Error(`unreadable npm spec in the index: ${m[1]}`);
    return { key, kind: "jspkg", identifier: spec.name, version: spec.version, honoured };
  }
  if ((m = desc.match(/^pypi (\S+)/))) {
    const [name, version] = m[1].split("@");
    return { key, kind: "pypkg", identifier: name, version: version ?? null, honoured };
  }
  if ((m = desc.match(/^docker (\S+)/))) return { key, kind: "oci", identifier: m[1], honoured };
  if ((m = desc.match(/^url\((.*?)\)(.*)$/))) {
    const url = m[1];
    const unresolvable = /loopback|unresolvable/.test(m[2]) || /\$\{|localhost|127\.0\.0\.1/.test(url);
    return { key, kind: "remote", identifier: url, unresolvable, honoured };
  }
  if ((m = desc.match(/^smithery (?:registry name )?(@\S+)/))) return { key, kind: "smithery", identifier: m[1], honoured };
  if (/^local path/.test(desc)) return { key, kind: "local", honoured };
  if (/^other/.test(desc)) return { key, kind: "other", honoured };
  throw new Error(`the test cannot read the index description ${JSON.stringify(desc)}`);
}

export function parseIndexEntries(column: string): Expected[] {
  if (/^none\b/.test(column)) return [];
  const out: Expected[] = [];
  let honoured: boolean | undefined;
  for (let item of splitTop(column)) {
    const tag = item.match(/^\[(\w+) - (ignored[^\]]*|effective)\]\s*/);
    if (tag) {
      honoured = tag[2] === "effective";
      item = item.slice(tag[0].length);
    }
    let m: RegExpMatchArray | null;
    if ((m = item.match(/^(\d+)x pypi via uvx NAME@latest: (.*?)(?: \(.*)?$/))) {
      for (const name of m[2].split(",").map((s) => s.trim())) out.push({ key: null, kind: "pypkg", identifier: name, version: "latest", honoured });
      continue;
    }
    if ((m = item.match(/^(\d+)x (local path|other)/))) {
      for (let i = 0; i < Number(m[1]); i++) out.push(describe1(null, m[2], honoured));
      continue;
    }
    const eq = item.indexOf("=");
    out.push(describe1(item.slice(0, eq), item.slice(eq + 1), honoured));
  }
  return out;
}

/**
 * Rows where this resolver and the index were reviewed and the index row is read differently, with why.
 * (Empty: every row of the current index is met as written. A future disagreement goes here, with a note,
 * rather than into a silent special case.)
 */
const INDEX_OVERRIDES: Record<string, { entries?: string; note: string }> = {};

const FORMAT_BY_STATUS: [RegExp, string | null][] = [
  [/^strict JSON ok/, "json"],
  [/^JSONC only/, "jsonc"],
  [/^TOML ok/, "toml"],
  [/^YAML ok/, "yaml"],
  [/^INVALID|^not JSON/, null],
];

function matches(identity: EntryIdentity, exp: Expected): boolean {
  if (exp.kind === "remote") {
    const local = identity.kind === "local" && identity.unresolvable?.code === "loopback_url";
    if (identity.kind !== "remote" && !local) return false;
    if (Boolean(exp.unresolvable) !== Boolean(identity.unresolvable)) return false;
    const norm = (u: string) => (/^https?:/.test(u) ? normalizeRemoteUrl(u) : u);
    return norm(identity.identifier ?? "") === norm(exp.identifier!);
  }
  if (identity.kind !== exp.kind) return false;
  if (exp.kind === "local" || exp.kind === "other") return identity.unresolvable !== null;
  if (exp.kind === "jspkg") return identity.identifier === exp.identifier && (identity.version ?? null) === (exp.version ?? null);
  if (exp.kind === "pypkg") return pypiKey(identity.identifier!) === pypiKey(exp.identifier!) && (identity.version ?? null) === (exp.version ?? null);
  if (exp.kind === "oci") {
    const tag = (ref: string) => ref.match(/:([^/:@]+)$/)?.[1] ?? "latest";
    return ociKey(identity.identifier!) === ociKey(exp.identifier!) && tag(identity.identifier!) === tag(exp.identifier!);
  }
  return identity.identifier === exp.identifier;
}

describe.skipIf(!hasIndex)("reference configs (../shared/reference/configs/INDEX.tsv)", () => {
  const rows = hasIndex ? readIndex() : [];

  it("the index lists every file of the folder", () => {
    const files = fs.readdirSync(CONFIG_DIR).filter((f) => f !== "INDEX.tsv").sort();
    expect(rows.map((r) => r.file).sort()).toEqual(files);
  });

  it.each(rows.map((r) => [r.file, r] as const))("%s parses, is recognised and classifies as the index says", (_file, row) => {
    const text = fs.readFileSync(path.join(CONFIG_DIR, row.file), "utf8");
    const status = FORMAT_BY_STATUS.find(([re]) => re.test(row.parse_status));
    expect(status, `unknown parse_status ${row.parse_status}`).toBeDefined();
    const format = status![1];

    for (const filename of [row.source_path, null]) {
      if (format === null) {
        let error: unknown;
        try {
          parseConfig(text, filename);
        } catch (err) {
          error = err;
        }
        expect(error).toBeInstanceOf(ConfigParseError);
        expect((error as ConfigParseError).line).toBeGreaterThanOrEqual(1);
        expect((error as ConfigParseError).column).toBeGreaterThanOrEqual(1);
        continue;
      }
      const parsed = parseConfig(text, filename);
      expect(parsed.format).toBe(format);
      expect(parsed.entries).toHaveLength(row.entry_count);
      // the source path names the client; without it the layout is the map key's
      if (filename) expect(parsed.layout).toBe(row.layout);
    }
    if (format === null) return;

    const parsed = parseConfig(text, row.source_path);
    const expected = parseIndexEntries(INDEX_OVERRIDES[row.file]?.entries ?? row.entries);
    expect(expected).toHaveLength(row.entry_count);
    const identities = parsed.entries.map((entry) => ({ entry, identity: classifyEntry(entry) }));
    const unmatched = [...identities];
    for (const exp of expected) {
      const at = unmatched.findIndex(({ entry, identity }) => (exp.key === null || entry.key === exp.key) && matches(identity, exp));
      expect(
        at,
        `${row.file}: no entry matches ${JSON.stringify(exp)}; got ${JSON.stringify(
          unmatched.map(({ entry, identity }) => [entry.key, identity.kind, identity.identifier, identity.version]),
        )}`,
      ).toBeGreaterThanOrEqual(0);
      const [{ entry }] = unmatched.splice(at, 1);
      if (exp.honoured !== undefined) expect(entry.honoured, `${row.file} ${entry.key} honoured`).toBe(exp.honoured);
    }
    expect(unmatched).toEqual([]);
  });
});
