import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config-audit";
import { classifyEntries } from "@/lib/config-audit/resolve-entries";

/**
 * The patterns that find variables, placeholders and secrets run over every word and URL of a body up to 256 KiB that
 * anyone may send. Several backtracked quadratically on a word built to defeat them (`${${${…`, `{{{{…`, `<aaa…`
 * without its `>`, `-tokentoken…`, `[REDACTED[REDACTED…`, any long word without `=`): 5 s of one core for a 20 KB word,
 * minutes for a whole body. Such words are read in well under a second now; the bound is loose on purpose (a slow CI
 * machine), the old patterns took 20 s to minutes at these sizes.
 */
describe("config audit patterns over hostile words", () => {
  const words = [
    "${".repeat(50_000),
    "${a".repeat(30_000),
    "${{".repeat(30_000),
    "{".repeat(100_000),
    "<" + "a".repeat(100_000),
    "-" + "token".repeat(20_000),
    "[REDACTED".repeat(11_000),
  ];
  it.each(words.map((w) => [w.slice(0, 6), w]))("a command, arguments and URLs of %j… are classified at once", (_label, word) => {
    const config = JSON.stringify({
      mcpServers: {
        cmd: { command: word },
        line: { command: `npx -y ${word} --api-key ${word}` },
        arg: { command: "npx", args: ["-y", word] },
        uvx: { command: "uvx", args: ["--from", word, word] },
        version: { command: "npx", args: ["-y", `pkg@${word}`] },
        url: { url: `https://mcp.acme.dev/${word}` },
      },
    });
    const started = performance.now();
    const entries = classifyEntries(parseConfig(config).entries);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(entries).toHaveLength(6);
  });
});
