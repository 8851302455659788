import { ConfigParseError, lineColumnAt } from "./config-parse-error";

/**
 * A config body as UTF-8 text. Config files are UTF-8 text; bytes that are not valid UTF-8 mean the body is
 * binary or in another encoding, reported at the first bad byte instead of being silently replaced.
 */
export function decodeConfigBytes(bytes: Uint8Array): string {
  // Windows PowerShell 5 writes files (`>`, Out-File) as UTF-16: text, which "binary" would misdescribe
  if (isUtf16(bytes)) throw new ConfigParseError("the file is UTF-16 text, not UTF-8: save it as UTF-8 and send it again", 1, 1);
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

/**
 * UTF-16 text: a UTF-16 byte order mark, or (without one) every other byte NUL at the start, as a config's ASCII
 * characters are in UTF-16. No UTF-8 text starts either way (NUL is a control character no config holds).
 */
function isUtf16(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  const n = Math.min(bytes.length, 64) & ~1;
  if (n < 4) return false;
  let le = true;
  let be = true;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0 || bytes[i + 1] !== 0) le = false;
    if (bytes[i] !== 0 || bytes[i + 1] === 0) be = false;
  }
  return le || be;
}
