import { identity, otherIdentity, placeholderIdentity, unknownOptionIdentity, type LaunchContext } from "./identity";
import { isLaunchPlaceholder } from "./launch-placeholder";
import { formatImageRef, parseImageRef } from "./oci-image";
import { doubtfulOption, readOption } from "./read-option";
import type { EntryIdentity } from "./types";

// `docker run` options that take a value, the whole table of `docker run --help` (Docker 27) plus podman's and
// nerdctl's own; other flags are booleans. One missing read its value as the image: `--pids-limit 100 mcp/x` audited
// `docker.io/library/100`, an UNKNOWN that hid the verdict of the image actually run (a BLOCK exited 0).
const WITH_VALUE = new Set([
  // docker run
  "--add-host", "--annotation", "-a", "--attach", "--blkio-weight", "--blkio-weight-device", "--cap-add", "--cap-drop",
  "--cgroup-parent", "--cgroupns", "--cidfile", "--cpu-count", "--cpu-percent", "--cpu-period", "--cpu-quota",
  "--cpu-rt-period", "--cpu-rt-runtime", "-c", "--cpu-shares", "--cpus", "--cpuset-cpus", "--cpuset-mems", "--detach-keys",
  "--device", "--device-cgroup-rule", "--device-read-bps", "--device-read-iops", "--device-write-bps", "--device-write-iops",
  "--dns", "--dns-opt", "--dns-option", "--dns-search", "--domainname", "--entrypoint", "-e", "--env", "--env-file",
  "--expose", "--gpus", "--group-add", "--health-cmd", "--health-interval", "--health-retries", "--health-start-interval",
  "--health-start-period", "--health-timeout", "-h", "--hostname", "--io-maxbandwidth", "--io-maxiops", "--ip", "--ip6",
  "--ipc", "--isolation", "--kernel-memory", "-l", "--label", "--label-file", "--link", "--link-local-ip", "--log-driver",
  "--log-opt", "--mac-address", "-m", "--memory", "--memory-reservation", "--memory-swap", "--memory-swappiness", "--mount",
  "--name", "--net", "--net-alias", "--network", "--network-alias", "--oom-score-adj", "--pid", "--pids-limit",
  "--platform", "-p", "--publish", "--pull", "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal",
  "--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs", "--ulimit", "-u", "--user", "--userns", "--uts", "-v",
  "--volume", "--volume-driver", "--volumes-from", "-w", "--workdir",
  // podman run (and nerdctl) beyond docker's
  "--arch", "--authfile", "--cert-dir", "--cgroup-conf", "--cgroups", "--chrootdirs", "--conmon-pidfile", "--creds",
  "--decryption-key", "--env-merge", "--gidmap", "--group-entry", "--health-log-destination", "--health-max-log-count",
  "--health-max-log-size", "--health-on-failure", "--health-startup-cmd", "--health-startup-interval",
  "--health-startup-retries", "--health-startup-success", "--health-startup-timeout", "--hooks-dir", "--hostuser",
  "--image-volume", "--init-path", "--log-level", "--os", "--passwd-entry", "--personality", "--pidfile", "--pod",
  "--pod-id-file", "--preserve-fds", "--rdt-class", "--requires", "--retry", "--retry-delay", "--sdnotify",
  "--seccomp-policy", "--secret", "--shm-size-systemd", "--subgidname", "--subuidname", "--timeout", "--tz", "--uidmap",
  "--umask", "--unsetenv", "--variant", "--cosign-key", "--snapshotter", "--namespace", "--cni-path", "--systemd",
]);

// The switches of the same commands; docker (pflag) refuses an option it does not know, so one in neither list,
// followed by a word, leaves the entry UNKNOWN rather than reading that word as the image.
const SWITCHES = new Set([
  "-d", "--detach", "-i", "--interactive", "-t", "--tty", "--rm", "--init", "--privileged", "-P", "--publish-all",
  "--read-only", "--sig-proxy", "--oom-kill-disable", "--no-healthcheck", "-q", "--quiet", "--disable-content-trust",
  "--use-api-socket", "--help",
  // podman and nerdctl
  "--replace", "--http-proxy", "--env-host", "--tls-verify", "--rmi", "--no-hosts", "--read-only-tmpfs", "--passwd",
  "--rootfs", "--unsetenv-all", "--no-hostname", "--insecure-registry",
]);

const RUN_OPTIONS = { withValue: WITH_VALUE, switches: SWITCHES };

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
  while (j < args.length) {
    const a = args[j];
    if (a === "--") {
      j++;
      break;
    }
    if (!a.startsWith("-")) break;
    const opt = readOption(args, j, RUN_OPTIONS);
    const doubtful = doubtfulOption(args, opt);
    if (doubtful) return unknownOptionIdentity(`${program} run`, doubtful, ctx);
    if (opt.flag === "--entrypoint") entrypoint = opt.value ?? "";
    // the switches of a cluster (`-it`, `-dit`, the `i` of `-ie K`), never the letters of a value glued to it (`-eID=1`)
    const cluster = /^-[a-zA-Z]+$/.test(a) ? a.slice(1, opt.flag === a ? undefined : a.indexOf(opt.flag[1])) : "";
    if (a === "--interactive" || cluster.includes("i")) interactive = true;
    if (a === "--detach" || cluster.includes("d")) detached = true;
    j = opt.next;
  }
  const image = args[j];
  const ref = image ? parseImageRef(image) : null;
  // `${IMAGE}`, `ghcr.io/${OWNER}/x`: the image is chosen at launch (a variable only in the tag leaves the image known)
  if (image && !ref && isLaunchPlaceholder(image)) return placeholderIdentity(image, `the image ${program} run starts`, ctx);
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
