import { identity, otherIdentity, type LaunchContext } from "./identity";
import { formatImageRef, parseImageRef } from "./oci-image";
import type { EntryIdentity } from "./types";

// `docker run` options that take a value (layouts reference §5.5); other flags are booleans.
const WITH_VALUE = new Set([
  "-e", "--env", "--env-file", "-v", "--volume", "--mount", "-p", "--publish", "--name", "--network", "--net", "-w",
  "--workdir", "-u", "--user", "--entrypoint", "--platform", "-l", "--label", "--add-host", "-h", "--hostname", "--cpus",
  "-m", "--memory", "--pull", "--security-opt", "--cap-add", "--cap-drop", "--device", "--gpus", "--restart", "--tmpfs",
  "--ulimit", "--log-driver", "--log-opt", "--ipc", "--pid", "--label-file", "--dns", "--expose", "--group-add",
  "--shm-size", "--stop-signal", "--stop-timeout", "--cidfile", "--runtime", "--userns", "--uts", "--volumes-from",
  "--link", "--memory-swap", "--health-cmd", "--cgroupns", "--attach", "-a", "--annotation", "--isolation",
]);

/**
 * `docker|podman|nerdctl run [options] IMAGE [args]` → the image (no registry host → docker.io, a missing tag
 * is `latest`). `docker mcp gateway run`, `docker exec` and `docker compose run` are not one image.
 */
export function classifyContainer(program: string, args: string[], ctx: LaunchContext): EntryIdentity {
  let i = 0;
  // global options before the subcommand (`docker --context x run …`)
  for (; i < args.length && args[i].startsWith("-"); i++) if (["--context", "-c", "--host", "-H", "--config", "--log-level", "-l"].includes(args[i])) i++;
  let sub = args[i];
  if (sub === "container" && args[i + 1] === "run") {
    i++;
    sub = "run";
  }
  if (sub === "mcp") {
    return otherIdentity(`${program} mcp`, `${program} mcp gateway runs an aggregator that serves many servers behind one entry; audit the servers it enables instead`, ctx);
  }
  if (sub !== "run") {
    return otherIdentity(`${program} ${sub ?? ""}`.trim(), `${program} ${sub ?? ""} does not run one container image`.replace(/\s+/g, " "), ctx);
  }
  let interactive = false;
  let detached = false;
  let entrypoint: string | null = null;
  let j = i + 1;
  for (; j < args.length; j++) {
    const a = args[j];
    if (a === "--") {
      j++;
      break;
    }
    if (!a.startsWith("-")) break;
    if (a.startsWith("--entrypoint=")) entrypoint = a.slice("--entrypoint=".length);
    if (a.includes("=")) continue;
    if (WITH_VALUE.has(a)) {
      if (a === "--entrypoint") entrypoint = args[j + 1] ?? "";
      j++;
      continue;
    }
    if (a === "--interactive" || (/^-[a-zA-Z]+$/.test(a) && a.includes("i"))) interactive = true;
    if (a === "--detach" || (/^-[a-zA-Z]+$/.test(a) && a.includes("d"))) detached = true;
  }
  const image = args[j];
  const ref = image ? parseImageRef(image) : null;
  if (!image || !ref) {
    return otherIdentity(image ?? program, `${program} run is called without an image reference the resolver can read`, ctx);
  }
  if (entrypoint !== null) {
    // the listing vouches for the server the image starts, not for whatever else the image holds
    // (`--entrypoint /bin/sh mcp/x -c "curl … | sh"` took the verdict of mcp/x)
    const what = entrypoint.trim() ? `runs ${entrypoint} instead` : "clears it";
    return otherIdentity(
      formatImageRef(ref),
      `${program} run --entrypoint replaces the program the image ${formatImageRef(ref)} starts (it ${what}); the catalog describes the image's own server, not another program in it`,
      ctx,
    );
  }
  const notes: string[] = [];
  if (!interactive) notes.push(`${program} run without -i: the container cannot speak stdio`);
  if (detached) notes.push(`${program} run -d detaches the container from the client`);
  return identity("oci", formatImageRef(ref), ctx, { version: ref.digest ?? ref.tag ?? "latest", note: notes.join("; ") || null });
}
