import type { HarvestProgress } from "./harvest-context";

/**
 * Progress of a harvest for a terminal: a redrawn bar per source on a TTY,
 * plain lines (at most one every few seconds per source, and one when it
 * ends) otherwise, so logs stay readable.
 */
export function progressPrinter(out: NodeJS.WriteStream = process.stdout): { update(p: HarvestProgress): void; done(): void } {
  const tty = Boolean(out.isTTY);
  let current: string | null = null;
  const lastLine = new Map<string, number>();
  const describe = (p: HarvestProgress) =>
    p.source === "registry"
      ? `registry: ${p.attempted} entries read, ${p.calls} calls`
      : `${p.source}: ${p.attempted}/${p.due} (${p.observed} observed, ${p.failed} failed), ${p.calls} calls`;
  return {
    update(p) {
      if (tty) {
        if (current && current !== p.source) out.write("\n");
        current = p.source;
        const width = 24;
        const frac = p.due ? Math.min(1, p.attempted / p.due) : p.source === "registry" ? 0 : 1;
        const bar = "█".repeat(Math.round(frac * width)).padEnd(width, "░");
        out.write(`\r\x1b[2K${p.source.padEnd(9)} ${bar} ${String(Math.round(frac * 100)).padStart(3)}%  ${describe(p).split(": ")[1]}`);
        return;
      }
      const now = Date.now();
      const finished = p.due > 0 && p.attempted >= p.due;
      if (!finished && now - (lastLine.get(p.source) ?? 0) < 3_000) return;
      lastLine.set(p.source, now);
      out.write(`${describe(p)}\n`);
    },
    done() {
      if (tty && current) out.write("\n");
    },
  };
}
