/**
 * A saved text file's characters. UTF-8, with or without a byte order mark, as most tools write it; UTF-16 when
 * the file starts with a UTF-16 byte order mark, as Windows PowerShell 5 writes `>` and Out-File (an evaluation
 * saved there with `curl … > evaluation.json` is one). Read as UTF-8, a UTF-16 file is "not valid JSON" at its
 * first byte, a refusal that names nothing the user can act on.
 */
export function decodeTextFile(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  return new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
}
