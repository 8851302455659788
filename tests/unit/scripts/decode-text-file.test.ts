import { describe, expect, it } from "vitest";
import { decodeTextFile } from "../../../scripts/lib/decode-text-file";

const text = '{"evaluation":{"server_name":"io.github.acme/wéather-mcp"}}';

function utf16be(s: string): Uint8Array {
  const le = Buffer.from(s, "utf16le");
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
  return le;
}

describe("decodeTextFile (npm run verify's reading of a saved evaluation)", () => {
  it("reads UTF-8 with and without a byte order mark", () => {
    expect(decodeTextFile(Buffer.from(text))).toBe(text);
    expect(decodeTextFile(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toBe(text);
  });

  it("reads UTF-16 with its byte order mark, as Windows PowerShell 5 saves `curl … > evaluation.json`", () => {
    expect(decodeTextFile(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]))).toBe(text);
    expect(decodeTextFile(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)]))).toBe(text);
  });
});
