import { hideAssignedValues } from "./command-line";
import { redactUrlText } from "./remote-url";
import type { Confidence, EntryIdentity, PackageSources, UnresolvedCode } from "./types";

/**
 * What each launcher classifier receives: the wrappers peeled so far and a way back into the dispatcher for
 * the command or URL a wrapper or bridge carries (recursion is depth-limited there).
 */
export interface LaunchContext {
  wrappers: string[];
  /** Classifies an inner command line reached through `wrapper` (`cmd /c`, `bash -c`, `supergateway --stdio`). */
  inner(argv: string[], wrapper: string): EntryIdentity;
  /**
   * Classifies a command line a shell runs (`sh -c "<line>"`, `cmd /c "<line>"`, `supergateway --stdio "<line>"`):
   * its one command, or `other` when the line runs more than one (`npx -y pkg && curl … | sh`, `$(…)`).
   */
  line(line: string, wrapper: string, opts?: { windows?: boolean; substitution?: boolean }): EntryIdentity;
  /** Classifies a remote URL reached through a bridge (`mcp-remote`, `supergateway --sse`, `mcp-proxy`). */
  remote(url: string, wrapper: string): EntryIdentity;
  /** The registry and indexes the entry's `env` sets for package launchers (absent: the public defaults). */
  sources?: PackageSources;
}

/**
 * Text as it may be shown back: `NAME=value` words without their value, and in every URL it holds (a git or
 * tarball source, a bridged endpoint) credentials and secret-looking query values replaced by `REDACTED`.
 */
function shown(text: string): string {
  return hideAssignedValues(text).replace(URL_IN_TEXT, (_all, before: string, url: string) => before + (/[@?]/.test(url) ? redactUrlText(url) : url));
}

/**
 * A URL in a launch's text: `\b[a-z][a-z0-9+.-]*:\/\/[^\s`'"()]*[^\s`'"().,;:!?]`, tried only where a run of scheme
 * characters begins, and only when the run is followed by `://` and something the URL can end on (the lookahead,
 * which reads no further than that); the URL starts at the run's first word start (`before` is what precedes it
 * in the run). Tried at every word start, the pattern scanned the rest of the run from each (`a.a.a.…`:
 * quadratic, minutes for one 256 KiB argument).
 */
const URL_IN_TEXT = /(?<![a-z0-9+.-])(?=[a-z0-9+.-]*:\/\/[.,;:!?]*[^\s`'"().,;:!?])([a-z0-9+.-]*?)(\b[a-z][a-z0-9+.-]*:\/\/[^\s`'"()]*[^\s`'"().,;:!?])/gi;

/** An identity; words of the launch that carry `NAME=value` never reach its identifier or note with their value. */
export function identity(
  kind: EntryIdentity["kind"],
  identifier: string | null,
  ctx: { wrappers: string[] },
  extra: { version?: string | null; confidence?: Confidence; note?: string | null; extras?: string[] } = {},
): EntryIdentity {
  return {
    kind,
    identifier: identifier === null ? null : shown(identifier),
    version: extra.version ?? null,
    confidence: extra.confidence ?? "high",
    wrappers: [...ctx.wrappers],
    unresolvable: null,
    note: extra.note ? shown(extra.note) : null,
    ...(extra.extras?.length ? { extras: extra.extras.map(shown) } : {}),
  };
}

function unresolvable(
  kind: "local" | "other",
  code: UnresolvedCode,
  identifier: string | null,
  summary: string,
  ctx: { wrappers: string[] },
  note: string | null = null,
): EntryIdentity {
  return { ...identity(kind, identifier, ctx, { note }), unresolvable: { code, summary: shown(summary) } };
}

/** A local file, script, binary or socket: never a catalog server. */
export function localIdentity(identifier: string, summary: string, ctx: { wrappers: string[] }, note: string | null = null): EntryIdentity {
  return unresolvable("local", "local_path", identifier, summary, ctx, note);
}

/** Something that is not a registry artifact (a program on PATH, a package URL, a git source, an aggregator). */
export function otherIdentity(identifier: string | null, summary: string, ctx: { wrappers: string[] }, note: string | null = null): EntryIdentity {
  return unresolvable("other", "not_a_registry_artifact", identifier, summary, ctx, note);
}

/**
 * A package, image, module or program named by a variable or template (`npx -y ${input:pkg}`, `docker run $IMAGE`):
 * not a local path and not a package the catalog lacks; what runs is known only once the client substitutes it.
 */
export function placeholderIdentity(word: string, subject: string, ctx: { wrappers: string[] }): EntryIdentity {
  return unresolvable(
    "other",
    "placeholder",
    word,
    `${subject}, ${word}, is a placeholder (a variable or template): it cannot be resolved until the client substitutes it at launch`,
    ctx,
  );
}

/**
 * A launcher called with an option the audit does not know, followed by a word: the launcher may read that word as
 * the option's value or as what it runs (`uvx --torch-backend auto pkg` once tied the entry to a PyPI package `auto`),
 * so the entry is not tied to a server. Only the option is named: the word after it may be a secret.
 */
export function unknownOptionIdentity(launcher: string, option: string, ctx: { wrappers: string[] }): EntryIdentity {
  return unresolvable(
    "other",
    "unknown_option",
    launcher,
    `${launcher} is called with ${option}, an option the audit does not know: whether the word after it is its value or what ${launcher} runs cannot be told, so the entry is not tied to a server`,
    ctx,
  );
}

/** The file names a `…/node_modules/<pkg>/…` path runs: an installed copy of that npm package. */
export function installedNpmPackage(path: string): string | null {
  const m = path.replace(/\\/g, "/").match(/node_modules\/((?:@[^/]+\/)?[^/.][^/]*)/);
  return m && m[1] !== ".bin" ? m[1] : null;
}

/** A global npm install shim (`…/npm/<bin>.cmd`, `…/.npm-global/bin/<bin>`): the package is probably `<bin>`. */
export function npmShimPackage(path: string): string | null {
  const p = path.replace(/\\/g, "/");
  const m = p.match(/\/(?:npm|\.npm-global\/bin|\.npm-packages\/bin)\/([^/]+?)(?:\.cmd|\.ps1)?$/i);
  return m ? m[1] : null;
}
