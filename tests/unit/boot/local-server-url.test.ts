import { describe, expect, it } from "vitest";
import { localServerUrl } from "@/lib/boot/local-server-file";

// Command-line jobs (ingest, harvest, deliver, key:create) reach the server that holds the embedded database
// at the URL it records: it must be an address the server listens on (HOSTNAME, which Docker exports as the
// container's name), not always the loopback one.
describe("localServerUrl", () => {
  it("is the loopback address when the server listens on every interface", () => {
    expect(localServerUrl(undefined, "3000")).toBe("http://127.0.0.1:3000");
    expect(localServerUrl("", "3000")).toBe("http://127.0.0.1:3000");
    expect(localServerUrl("0.0.0.0", "3140")).toBe("http://127.0.0.1:3140");
    expect(localServerUrl("::", "3140")).toBe("http://127.0.0.1:3140");
  });

  it("is the address the server is bound to otherwise", () => {
    expect(localServerUrl("192.0.2.2", "3140")).toBe("http://192.0.2.2:3140");
    expect(localServerUrl("3f2a9c1d7e4b", "3000")).toBe("http://3f2a9c1d7e4b:3000");
    expect(localServerUrl("::1", "3000")).toBe("http://[::1]:3000");
    expect(localServerUrl("fd00::5", "3000")).toBe("http://[fd00::5]:3000");
  });
});
