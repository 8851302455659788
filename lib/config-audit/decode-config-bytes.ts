import { ConfigParseError, lineColumnAt } from "./config-parse-error";

/**
 * A config body as UTF-8 text. Config files are UTF-8 text; bytes that are not valid UTF-8 mean the body is
 * binary or in another encoding, reported at the first bad byte instead of being silently replaced.
 */
export function decodeConfigBytes(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // find the first undecodable byte: the valid prefix decodes, the prefix through the bad byte does not
    let lo = 0;
    let hi = bytes.length;
    const ok = (n: number) => {
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
        return true;
      } catch {
        return false;
      }
    };
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ok(mid)) lo = mid;
      else hi = mid - 1;
    }
    const prefix = new TextDecoder("utf-8").decode(bytes.subarray(0, lo));
    const { line, column } = lineColumnAt(prefix, prefix.length);
    throw new ConfigParseError("the body is not UTF-8 text (a binary file or another encoding)", line, column);
  }
}
