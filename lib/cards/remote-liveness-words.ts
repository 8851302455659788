import type { HealthCard } from "@/lib/schemas/health-card";

/**
 * A remote's last liveness observation as the server page says it. A probe that timed out is no observation
 * (lib/sources/liveness.ts: "unreachable" moves only attempted_at), so a remote observed down with no HTTP status
 * got no HTTP answer at all: its connection was refused, its name did not resolve or TLS failed. A bare "down"
 * read as if the endpoint had answered with an error.
 */
export function remoteLivenessWords(remote: Pick<HealthCard["remotes"][number], "live" | "http_status">): string {
  if (remote.live === null) return "liveness not observed";
  const status = remote.http_status !== null ? ` (HTTP ${remote.http_status})` : "";
  if (remote.live) return `answered${status}`;
  return status ? `down${status}` : "down, no HTTP answer (connection refused, name not resolved or TLS failure)";
}
