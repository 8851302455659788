import { describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
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

describe("the local server file", () => {
  // a child process stands in for the server: it writes the file, then exits as a stopped server does
  const runServer = (dataDir: string, code: string) =>
    spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "-e", `import("./lib/boot/local-server-file.ts").then((m) => { m.writeLocalServerInfo("http://127.0.0.1:9"); ${code} })`], {
      encoding: "utf8",
      env: { ...process.env, DATA_DIR: dataDir },
    });

  it("goes with the server that wrote it, so no job reads a stopped server's address and secret", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "server-file-"));
    try {
      const r = runServer(dir, "process.exit(0)");
      expect(r.status, r.stderr).toBe(0);
      expect(fs.existsSync(path.join(dir, "server.json"))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stays when another server has written its own since", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "server-file-"));
    try {
      const other = JSON.stringify({ pid: 1, url: "http://127.0.0.1:8", secret: "theirs" });
      const r = runServer(dir, `require("node:fs").writeFileSync(${JSON.stringify(path.join(dir, "server.json"))}, ${JSON.stringify(other)})`);
      expect(r.status, r.stderr).toBe(0);
      expect(fs.readFileSync(path.join(dir, "server.json"), "utf8")).toBe(other);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
