import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCatalogIndex, catalogQueryFor, classifyEntries, parseConfig, parsePypiSpec, resolveEntries } from "@/lib/config-audit";
import { hideAssignedValues } from "@/lib/config-audit/command-line";
import { identity } from "@/lib/config-audit/identity";
import { looksLikeToml } from "@/lib/config-audit/read-config-document";
import { redactUrlText, remoteUrlCandidates, VARIABLE } from "@/lib/config-audit/remote-url";

/**
 * A config is anyone's text (POST /v1/resolve is unmetered, and one keyless audit a day is free), read on the
 * request's thread: a regular expression that backtracks over it, or a loop that reads the rest of it again at
 * each step, holds every other request up meanwhile. Each body below took minutes (the first, exponential,
 * hours at 30 clauses; the others quadratic: one to three minutes at 64 KiB, a quarter of the 256 KiB limit,
 * and sixteen times that at the limit); each now takes milliseconds.
 */
const SIZE = 64 * 1024;
const fill = (unit: string) => unit.repeat(Math.floor(SIZE / unit.length));
const server = (entry: Record<string, unknown>) => JSON.stringify({ mcpServers: { a: entry } });

const BODIES: Record<string, string> = {
  // `>=` read as `>` then `=1` and as `>=` then `1`, two ways per clause
  "a uvx --from requirement with many clauses that do not end well": server({ command: "uvx", args: ["--from", `a${">=1,".repeat(24)}`, "a"] }),
  "a long argument with no `=` in it": server({ command: "node", args: [fill("a")] }),
  "a long argument of dotted words": server({ command: "node", args: [fill("a.")] }),
  "a long command": server({ command: fill("a") }),
  "a remote URL with an unclosed `<`": server({ url: `https://x.example/<${fill("a")}` }),
  "a `[` and then blank lines": `[${"\n".repeat(SIZE)}`,
  "a long argument of `://`": server({ command: "node", args: [fill("://")] }),
  "a remote URL of many path segments": server({ url: `https://h.example/${fill("a/")}` }),
  "a bridged remote URL of many path segments": server({ command: "npx", args: ["mcp-remote", `https://h.example/${fill("a\\")}`] }),
  "a remote URL of many `${`": server({ url: `https://h.example/${fill("${")}` }),
  "a shell line of blank lines": server({ command: "bash", args: ["-c", `npx -y x${fill("\n ")}`] }),
  // the package, version and secret-option positions of a launch, and a placeholder template
  "a package of many `${` with no `}`": server({ command: "npx", args: ["-y", fill("${")] }),
  "a version of many `${a`": server({ command: "npx", args: ["-y", `pkg@${fill("${a")}`] }),
  "a package of many `{{`": server({ command: "uvx", args: ["--from", fill("{"), fill("{")] }),
  "a command line with a long secret-named option": server({ command: `npx -y pkg -${fill("token")} x` }),
  "a remote URL of many `[REDACTED`": server({ url: `https://h.example/${fill("[REDACTED")}` }),
};

function audit(text: string): void {
  try {
    const classified = classifyEntries(parseConfig(text, null).entries);
    resolveEntries(classified, buildCatalogIndex([]));
    catalogQueryFor(classified);
  } catch {
    // a refusal is an answer too: only the time matters here
  }
}

describe("config audit: hostile bodies are read in linear time", () => {
  for (const [what, body] of Object.entries(BODIES)) {
    it(what, () => {
      const started = performance.now();
      audit(body);
      expect(performance.now() - started).toBeLessThan(1_000);
    });
  }
});

describe("parsePypiSpec still reads every comparison", () => {
  it.each([
    ["pkg>=1,<2", "pkg", ">=1,<2"],
    ["pkg===1.0", "pkg", "1.0"],
    ["pkg == 1.2", "pkg", "1.2"],
    ["pkg[extra]<=2 ; python_version>'3'", "pkg", "<=2"],
    ["pkg~=1.4, !=1.4.3", "pkg", "~=1.4,!=1.4.3"],
  ])("%s", (spec, name, version) => {
    expect(parsePypiSpec(spec)).toEqual({ kind: "registry", name, version });
  });
});

/** The patterns as they were (backtracking, but right): the rewritten ones must find exactly what they found. */
const OLD = {
  hideAssignedValues: (text: string) =>
    text
      .replace(/[^\s`'"()]*=[^\s`'"()]*/g, (word) => {
        if (word.includes("://")) return word;
        const name = word.match(/^-{0,2}[A-Za-z_][A-Za-z0-9_.-]*=/);
        return name ? `${name[0]}…` : "…";
      })
      .replace(/(\s-{1,2}[A-Za-z0-9_.-]*(?:token|key|secret|passw|pwd|auth|credential)[A-Za-z0-9_.-]*\s+)(?!-)[^\s`'"()]+/gi, "$1…"),
  shown: (text: string) =>
    OLD.hideAssignedValues(text).replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s`'"()]*[^\s`'"().,;:!?]/gi, (url) => (/[@?]/.test(url) ? redactUrlText(url) : url)),
  looksLikeToml: (text: string) => /^\s*\[\[?[A-Za-z0-9_."' -]+\]\]?\s*(#.*)?$/m.test(text) || /^\s*[A-Za-z0-9_."'-]+\s*=\s*\S/m.test(text),
  variable: /\$\{[^}]*\}|\$\{\{[^}]*\}\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%/,
  pypiSpec: /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(\[[^\]]*\])?\s*(?:@\s*([^\s;]+)|((?:===|==|~=|!=|<=|>=|<|>)\s*[^\s;,]+(?:\s*,\s*(?:===|==|~=|!=|<=|>=|<|>)\s*[^\s;,]+)*))?\s*(;.*)?$/,
};

const textOf = (chars: string[], maxLength = 40) => fc.array(fc.constantFrom(...chars), { maxLength }).map((a) => a.join(""));

describe("the linear patterns find what the backtracking ones found", () => {
  it("values hidden in NAME=value words, and URLs with credentials or a query redacted", () => {
    const text = textOf(["a", "Z", "1", "_", ".", "-", "+", ":", "/", "//", "@", "?", "=", " ", "(", ",", "!", "token", "x://u:p@h", "https://h/?k=v"]);
    fc.assert(
      fc.property(text, (t) => {
        expect(hideAssignedValues(t)).toBe(OLD.hideAssignedValues(t));
        expect(identity("other", t, { wrappers: [] }).identifier).toBe(OLD.shown(t));
      }),
      { numRuns: 5_000 },
    );
  });

  it("a launch variable in a URL", () => {
    const text = textOf(["$", "{", "}", "${", "${{", "}}", "a", "%", "_", " "], 20);
    fc.assert(
      fc.property(text, (t) => {
        expect(VARIABLE.test(t)).toBe(OLD.variable.test(t));
      }),
      { numRuns: 5_000 },
    );
  });

  it("a TOML table header or key line", () => {
    const text = textOf(["\n", "\r", "\r\n", " ", "\t", "\u00a0", "\u2028", "[", "]", "a", "=", "#", "x", "{"], 30);
    fc.assert(fc.property(text, (t) => {
      expect(looksLikeToml(t)).toBe(OLD.looksLikeToml(t));
    }), { numRuns: 5_000 });
  });

  it("a PyPI requirement's comparisons (a version never starts with `=`)", () => {
    const text = textOf(["pkg", "a", "=", "==", ">", "<", "~", "!", ",", " ", "1", ".", ";", "[x]", "@"], 12);
    fc.assert(
      fc.property(text, (t) => {
        // `>==1` is no requirement pip reads: only there may the two differ (no longer read as `>=` then `=1`)
        fc.pre(!/(===|==|~=|!=|<=|>=|<|>)\s*=/.test(t));
        const m = t.trim().match(OLD.pypiSpec);
        const now = parsePypiSpec(t);
        if (now.kind === "registry") {
          expect(m).not.toBeNull();
          expect(now).toEqual({ kind: "registry", name: m![1], version: m![3] ?? (m![4] ? m![4].replace(/^===?\s*/, "").replace(/\s+/g, "") : null) });
        } else if (now.kind === "local") {
          // the branches before the pattern (paths, archives) decide alike; after them, no match is "local"
          if (!/^(file:|\.{1,2}[\\/]|\/|~\/|[A-Za-z]:[\\/])/.test(t.trim()) && !/\.(whl|tar\.gz|zip)$/i.test(t.trim())) expect(m).toBeNull();
        }
      }),
      { numRuns: 5_000 },
    );
  });
});

describe("remoteUrlCandidates of a long URL", () => {
  it("makes no form longer than a catalog URL can be, and still cuts back to the short ones", () => {
    const url = new URL(`https://h.example/mcp/${"segment/".repeat(5_000)}`);
    const forms = remoteUrlCandidates(url).map((c) => c.url);
    expect(forms).toContain("https://h.example/mcp");
    expect(forms).toContain("https://h.example/mcp/segment");
    expect(Math.max(...forms.map((f) => f.length))).toBeLessThanOrEqual(1_000);
    // a URL that fits is cut back as before, every segment
    expect(remoteUrlCandidates(new URL("https://h.example/a/b/c?x=1")).map((c) => c.url)).toEqual([
      "https://h.example/a/b/c?x=1",
      "https://h.example/a/b/c/?x=1",
      "https://h.example/a/b/c",
      "https://h.example/a/b/c/",
      "https://h.example/a/b",
      "https://h.example/a/b/",
      "https://h.example/a",
      "https://h.example/a/",
    ]);
  });
});
