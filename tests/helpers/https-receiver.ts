import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import https from "node:https";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import selfsigned from "selfsigned";

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface TestTls {
  key: string;
  cert: string;
  /** PEM file of the certificate, for OUTBOUND_EXTRA_CA_FILE. */
  caFile: string;
}

let tls: Promise<TestTls> | undefined;

/**
 * A self-signed certificate for 127.0.0.1, ::1 and localhost, made at test
 * time and trusted by the service's outbound dispatcher through the test-only
 * OUTBOUND_EXTRA_CA_FILE (on top of the system roots).
 */
export async function testTls(): Promise<TestTls> {
  tls ??= (async () => {
    const pems = await selfsigned.generate([{ name: "commonName", value: "localhost" }], {
      keyType: "ec",
      algorithm: "sha256",
      notAfterDate: new Date(Date.now() + 7 * 86_400_000),
      extensions: [
        { name: "basicConstraints", cA: true },
        { name: "keyUsage", digitalSignature: true, keyCertSign: true },
        { name: "extKeyUsage", serverAuth: true },
        {
          name: "subjectAltName",
          altNames: [
            { type: 2, value: "localhost" },
            { type: 7, ip: "127.0.0.1" },
            { type: 7, ip: "::1" },
          ],
        },
      ],
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "watch-tls-"));
    const caFile = path.join(dir, "ca.pem");
    fs.writeFileSync(caFile, pems.cert);
    return { key: pems.private, cert: pems.cert, caFile };
  })();
  const made = await tls;
  // on every call: the certificate is made once per worker, but the setup puts each file's environment back after it,
  // so a second file of the worker found the variable gone and its requests refused the receiver's certificate
  process.env.OUTBOUND_EXTRA_CA_FILE = made.caFile;
  return made;
}

export type ReceiverHandler = (req: ReceivedRequest, res: http.ServerResponse) => void;

/**
 * A local HTTPS webhook receiver on a random port of `host`. Every request is
 * kept in `requests`; `handler` answers (200 by default).
 */
export async function startHttpsReceiver(handler?: ReceiverHandler, host = "127.0.0.1") {
  const { key, cert } = await testTls();
  const requests: ReceivedRequest[] = [];
  let answer: ReceiverHandler = handler ?? ((_req, res) => res.writeHead(200).end("ok"));
  const server = https.createServer({ key, cert }, (req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const r: ReceivedRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(parts) };
      requests.push(r);
      answer(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(":") ? `[${host}]` : host;
  return {
    url: `https://${hostPart}:${port}/hook`,
    port,
    requests,
    server,
    setHandler(h: ReceiverHandler) {
      answer = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
