import http from "node:http";
import net from "node:net";
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";

/**
 * A minimal WebSocket-to-TCP proxy like Neon's (`wss://host/v2?address=host:port`): each binary message a client
 * sends is written to the TCP connection, and what that connection answers comes back as binary messages. Enough
 * for @neondatabase/serverless to reach a local Postgres server (RFC 6455 framing, no extensions).
 */
export async function startWsTcpProxy(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(426).end());
  server.on("upgrade", (req, client: net.Socket) => {
    const address = new URL(req.url ?? "/", "http://proxy").searchParams.get("address") ?? "";
    const [host, port] = [address.slice(0, address.lastIndexOf(":")), Number(address.slice(address.lastIndexOf(":") + 1))];
    const accept = createHash("sha1").update(`${req.headers["sec-websocket-key"]}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest("base64");
    client.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    const upstream = net.connect(port, host);
    sockets.add(client).add(upstream);
    upstream.on("data", (chunk: Buffer) => client.write(Buffer.concat([frameHeader(0x82, chunk.length), chunk])));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on("close", end).on("error", end);
    client.on("close", end).on("error", end);
    let pending = Buffer.alloc(0);
    client.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const frame = readFrame(pending);
        if (!frame) return;
        pending = pending.subarray(frame.size);
        if (frame.opcode === 0x8) return end();
        if (frame.opcode === 0x9) client.write(Buffer.concat([frameHeader(0x8a, frame.payload.length), frame.payload]));
        else if (frame.opcode <= 0x2) upstream.write(frame.payload);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function frameHeader(first: number, length: number): Buffer {
  if (length < 126) return Buffer.from([first, length]);
  if (length < 65_536) {
    const b = Buffer.alloc(4);
    b[0] = first;
    b[1] = 126;
    b.writeUInt16BE(length, 2);
    return b;
  }
  const b = Buffer.alloc(10);
  b[0] = first;
  b[1] = 127;
  b.writeBigUInt64BE(BigInt(length), 2);
  return b;
}

function readFrame(buf: Buffer): { opcode: number; payload: Buffer; size: number } | null {
  if (buf.length < 2) return null;
  const opcode = buf[0] & 0x0f;
  const masked = (buf[1] & 0x80) !== 0;
  let length = buf[1] & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buf.length < 4) return null;
    length = buf.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buf.length < 10) return null;
    length = Number(buf.readBigUInt64BE(2));
    offset = 10;
  }
  const mask = masked ? buf.subarray(offset, offset + 4) : null;
  if (masked) offset += 4;
  if (buf.length < offset + length) return null;
  const payload = Buffer.from(buf.subarray(offset, offset + length));
  if (mask) for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i % 4];
  return { opcode, payload, size: offset + length };
}
