import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SMTPServer } from "smtp-server";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { createRequire } from "node:module";
import { eq } from "drizzle-orm";
import { drizzleAuthAdapter } from "@/lib/auth/drizzle-adapter";
import { sendMail } from "@/lib/auth/send-mail";
import { mailboxVisibleTo, mailboxVisibleToRequest } from "@/lib/auth/list-dev-mail";
import { socketIp } from "@/lib/api/socket-ip";
import { clientIp } from "@/lib/api/client-ip";
import { createAccount } from "@/lib/accounts/create-account";
import { createApiKey } from "@/lib/accounts/create-api-key";
import { listApiKeys } from "@/lib/accounts/list-api-keys";
import { mailNewKey } from "@/lib/accounts/mail-new-key";
import { takeAccountMail } from "@/lib/auth/mail-allowance";
import { takeSignInRequest } from "@/lib/auth/sign-in-allowance";
import { authOptions, authOptionsFor } from "@/lib/auth/auth-options";
import { newCsrfCookie } from "@/lib/auth/csrf-token";
import { isWellFormedApiKey } from "@/lib/accounts/api-key-format";
import { MAX_API_KEYS_PER_ACCOUNT, SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR } from "@/lib/config";
import type { ApiError } from "@/lib/api/errors";
import { resolveCaller } from "@/lib/quota";
import { apiKeys, creditWallets, devMailbox, sessions, verificationTokens } from "@/lib/db/schema";
import { runMaintenance } from "@/lib/services/run-maintenance";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { request } from "../helpers/catalog-fixture";
import { mailHeader, startSmtpSink } from "../helpers/smtp-sink";
import { POST as adminKeysPost } from "@/app/api/admin/keys/route";

let db: Db;
let logged: string[];

// next-auth's core, as its route handler calls it (the package exports no subpath for it)
const { AuthHandler } = createRequire(import.meta.url)("../../node_modules/next-auth/core/index.js") as {
  AuthHandler: (p: { req: unknown; options: unknown }) => Promise<{ redirect?: string }>;
};
/** POST /api/auth/signin/email with a valid csrf token, from `client` (as the auth route names it). */
const askForLink = (email: string, client = "192.0.2.10") => {
  const csrf = newCsrfCookie(new Headers());
  return AuthHandler({
    req: {
      action: "signin",
      providerId: "email",
      method: "POST",
      body: { email, csrfToken: csrf.value.split("|")[0] },
      cookies: { [csrf.name]: csrf.value },
      headers: {},
      query: {},
    },
    options: authOptionsFor(client),
  });
};
/** The end of the hour a request made now is counted in. */
const thisHourEnds = () => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 3_600_000).toISOString();
beforeEach(async () => {
  db = await resetDb();
  logged = [];
  vi.spyOn(console, "log").mockImplementation((...args) => void logged.push(args.join(" ")));
  delete process.env.SMTP_URL;
  delete process.env.DEV_MAILBOX;
});
afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.SMTP_URL;
  delete process.env.DEV_MAILBOX;
});

describe("accounts", () => {
  it("creates an account with this month's grant and no card, once per e-mail address", async () => {
    const a = await createAccount({ email: "Ada@Example.TEST" }, { db, now: new Date("2026-05-20T10:00:00Z") });
    const again = await createAccount({ email: "ada@example.test" }, { db });
    expect(again.id).toBe(a.id);
    expect(a).toMatchObject({ email: "ada@example.test", tier: "registered" });
    expect(a.id).toMatch(/^acc_[0-9a-z]{16}$/);
    const [w] = await db.select().from(creditWallets).where(eq(creditWallets.accountId, a.id));
    expect(w).toMatchObject({ periodStart: "2026-05-01", grantAmount: 1000, grantRemaining: 1000, purchasedRemaining: 0 });
  });

  it("stores a key as its hash and prefix only, and lists it without the key", async () => {
    const a = await createAccount({ email: "k@example.test" }, { db });
    const created = await createApiKey(a.id, { db });
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, created.keyId));
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(row.prefix).toBe(created.key.slice(0, 11));
    const listed = await listApiKeys(a.id, { db });
    expect(listed).toEqual([{ keyId: created.keyId, prefix: created.prefix, name: null, createdAt: expect.any(Date), lastUsedAt: null, revokedAt: null }]);
  });

  it("keeps a key's optional name trimmed, one space for any run of blanks, and refuses one over 40 characters", async () => {
    const a = await createAccount({ email: "named@example.test" }, { db });
    const named = await createApiKey(a.id, { db, name: "  CI\t runner\n " });
    expect(named.name).toBe("CI runner");
    const blank = await createApiKey(a.id, { db, name: "   " });
    expect(blank.name).toBeNull();
    const longest = await createApiKey(a.id, { db, name: ` ${"n".repeat(40)} ` });
    expect(longest.name).toBe("n".repeat(40));
    await expect(createApiKey(a.id, { db, name: "n".repeat(41) })).rejects.toMatchObject({
      code: "invalid_request",
      message: "name: name must be at most 40 characters",
      extra: { issues: [expect.objectContaining({ code: "too_big", path: ["name"], maximum: 40 })] },
    });
    const listed = await listApiKeys(a.id, { db });
    expect(listed.map((k) => k.name).sort()).toEqual(["CI runner", "n".repeat(40), null].sort());
  });

  it("issues a key to an operator with the operator secret only (POST /api/admin/keys, npm run key:create)", async () => {
    process.env.CRON_SECRET = "operator-secret";
    try {
      const issue = (body: unknown, secret = "operator-secret") => adminKeysPost(request("/api/admin/keys", { body, headers: { authorization: `Bearer ${secret}` } }));
      expect((await issue({ email: "ops@example.test" }, "wrong")).status).toBe(401);
      expect((await issue({ email: "ops@example.test", tier: "gold" })).status).toBe(400);
      const res = await issue({ email: "Ops@Example.test", tier: "pro" });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const body = await res.json();
      expect(body).toMatchObject({ ok: true, tier: "pro", key: expect.any(String), prefix: body.key.slice(0, 11) });
      const { caller } = await resolveCaller(new Request("http://localhost/v1/credits", { headers: { "x-api-key": body.key } }), { db });
      expect(caller).toMatchObject({ accountId: body.account_id, tier: "pro" });
    } finally {
      delete process.env.CRON_SECRET;
    }
  });

  it(`holds an account to ${MAX_API_KEYS_PER_ACCOUNT} live keys, also when many are made at once`, async () => {
    const a = await createAccount({ email: "many@example.test" }, { db });
    const made = await Promise.allSettled(Array.from({ length: MAX_API_KEYS_PER_ACCOUNT + 5 }, () => createApiKey(a.id, { db })));
    expect(made.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_API_KEYS_PER_ACCOUNT);
    const refused = made.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused.map((r) => (r.reason as ApiError).code)).toEqual(Array(5).fill("invalid_request"));
    expect((await listApiKeys(a.id, { db })).filter((k) => !k.revokedAt)).toHaveLength(MAX_API_KEYS_PER_ACCOUNT);
  });
});

describe("the sign-in adapter", () => {
  it("creates, finds and verifies accounts by e-mail, case-insensitively", async () => {
    const adapter = drizzleAuthAdapter();
    const user = await adapter.createUser!({ email: "New@Example.test", emailVerified: null } as never);
    expect(await adapter.getUserByEmail!("new@EXAMPLE.test")).toMatchObject({ id: user.id, email: "new@example.test" });
    const verified = new Date("2026-05-20T10:00:00Z");
    expect(await adapter.updateUser!({ id: user.id, emailVerified: verified })).toMatchObject({ emailVerified: verified });
    expect((await db.select().from(creditWallets)).map((w) => w.accountId)).toEqual([user.id]);
  });

  it("lets a magic-link token be used exactly once, also by two clicks at the same time", async () => {
    const adapter = drizzleAuthAdapter();
    const expires = new Date(Date.now() + 3600_000);
    await adapter.createVerificationToken!({ identifier: "a@example.test", token: "hashed-token", expires });
    const [first, second] = await Promise.all([
      adapter.useVerificationToken!({ identifier: "a@example.test", token: "hashed-token" }),
      adapter.useVerificationToken!({ identifier: "a@example.test", token: "hashed-token" }),
    ]);
    expect([first, second].filter(Boolean)).toEqual([{ identifier: "a@example.test", token: "hashed-token", expires }]);
    expect(await adapter.useVerificationToken!({ identifier: "a@example.test", token: "hashed-token" })).toBeNull();
  });

  it("finds no account for an address holding a NUL (next-auth asks before its own error handling: it was a 500)", async () => {
    const adapter = drizzleAuthAdapter();
    await adapter.createUser!({ email: "a@example.test", emailVerified: null } as never);
    expect(await adapter.getUserByEmail!("a\u0000@example.test")).toBeNull();
  });
});

describe("sessions", () => {
  it("keeps a session by its token's hash, finds it with its account, and forgets it on sign-out", async () => {
    const adapter = drizzleAuthAdapter();
    const account = await createAccount({ email: "s@example.test" }, { db });
    const expires = new Date(Date.now() + 30 * 86_400_000);
    await adapter.createSession!({ sessionToken: "cookie-token-1", userId: account.id, expires });
    expect(JSON.stringify(await db.select().from(sessions))).not.toContain("cookie-token-1");
    expect(await adapter.getSessionAndUser!("cookie-token-1")).toEqual({
      session: { sessionToken: "cookie-token-1", userId: account.id, expires },
      user: { id: account.id, email: "s@example.test", emailVerified: null, name: null },
    });
    expect(await adapter.getSessionAndUser!("another-token")).toBeNull();
    const later = new Date(expires.getTime() + 86_400_000);
    expect(await adapter.updateSession!({ sessionToken: "cookie-token-1", expires: later })).toEqual({ sessionToken: "cookie-token-1", userId: account.id, expires: later });
    await adapter.deleteSession!("cookie-token-1");
    expect(await adapter.getSessionAndUser!("cookie-token-1")).toBeNull();
  });

  it("signs in with database sessions, so that signing out ends the session on the server", () => {
    expect(authOptions().session?.strategy).toBe("database");
  });

  it("deletes expired sessions and sign-in links in the daily maintenance, and only those", async () => {
    const adapter = drizzleAuthAdapter();
    const account = await createAccount({ email: "old@example.test" }, { db });
    const now = new Date("2026-06-01T00:00:00Z");
    await adapter.createSession!({ sessionToken: "gone", userId: account.id, expires: new Date("2026-05-31T23:59:59Z") });
    await adapter.createSession!({ sessionToken: "kept", userId: account.id, expires: new Date("2026-06-30T00:00:00Z") });
    await adapter.createVerificationToken!({ identifier: "old@example.test", token: "stale", expires: new Date("2026-05-31T00:00:00Z") });
    await adapter.createVerificationToken!({ identifier: "old@example.test", token: "fresh", expires: new Date("2026-06-01T12:00:00Z") });
    await runMaintenance(db, now);
    expect((await adapter.getSessionAndUser!("kept"))?.user.id).toBe(account.id);
    expect(await adapter.getSessionAndUser!("gone")).toBeNull();
    expect((await db.select().from(verificationTokens)).map((t) => t.token)).toEqual(["fresh"]);
  });
});

describe("mail without SMTP: the log and the dev mailbox", () => {
  it("writes the link to the log and to the dev mailbox", async () => {
    const url = "http://localhost:3000/api/auth/callback/email?token=t1&email=a%40example.test";
    expect(await sendMail({ to: "a@example.test", subject: "Sign in to mcp-preflight", text: `link ${url}`, url })).toEqual({
      delivered: "dev-mailbox",
    });
    expect(logged.join("\n")).toContain(url);
    expect(await db.select().from(devMailbox)).toMatchObject([{ to: "a@example.test", subject: "Sign in to mcp-preflight", url }]);
  });

  it("keeps nothing in the dev mailbox when DEV_MAILBOX=0", async () => {
    process.env.DEV_MAILBOX = "0";
    expect((await sendMail({ to: "a@example.test", subject: "s", text: "t", url: "http://x/" })).delivered).toBe("log");
    expect(await db.select().from(devMailbox)).toEqual([]);
  });

  it.each([
    [null, true],
    ["127.0.0.1", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["192.168.1.20", false],
    ["203.0.113.9", false],
  ])("shows the mailbox page to socket address %s: %s", (ip, visible) => {
    expect(mailboxVisibleTo(ip)).toBe(visible);
  });

  it("in production, believes the socket header only from scripts/server.mjs: under `next start` it is the client's own claim", () => {
    const env = { NODE_ENV: process.env.NODE_ENV, flag: process.env.MCP_PREFLIGHT_SOCKET_IP_HEADER };
    const forged = new Request("http://localhost/dev/mailbox", { headers: { "x-mcp-preflight-socket-ip": "127.0.0.1" } });
    try {
      (process.env as Record<string, string>).NODE_ENV = "production";
      delete process.env.MCP_PREFLIGHT_SOCKET_IP_HEADER;
      expect(socketIp(forged.headers)).toBeNull();
      expect(mailboxVisibleTo(socketIp(forged.headers))).toBe(false);
      // and a client cannot name a fresh address per request to reset the anonymous allowances
      expect(clientIp(forged)).toBe("unknown");
      process.env.MCP_PREFLIGHT_SOCKET_IP_HEADER = "1";
      expect(mailboxVisibleTo(socketIp(forged.headers))).toBe(true);
      expect(clientIp(forged)).toBe("127.0.0.1");
    } finally {
      (process.env as Record<string, string | undefined>).NODE_ENV = env.NODE_ENV;
      if (env.flag === undefined) delete process.env.MCP_PREFLIGHT_SOCKET_IP_HEADER;
      else process.env.MCP_PREFLIGHT_SOCKET_IP_HEADER = env.flag;
    }
  });

  it("behind a proxy we run (TRUST_PROXY), shows it only when the forwarded client is on this machine too", () => {
    process.env.TRUST_PROXY = "1";
    try {
      expect(mailboxVisibleTo("127.0.0.1", "203.0.113.5")).toBe(false);
      expect(mailboxVisibleTo("127.0.0.1", "203.0.113.5, 127.0.0.1")).toBe(false);
      // a remote client claiming to be local, as an appending proxy forwards it
      expect(mailboxVisibleTo("127.0.0.1", "127.0.0.1, 203.0.113.5")).toBe(false);
      expect(mailboxVisibleTo("127.0.0.1", "127.0.0.1")).toBe(true);
      expect(mailboxVisibleTo("127.0.0.1", null)).toBe(true);
    } finally {
      delete process.env.TRUST_PROXY;
    }
    // without TRUST_PROXY a forwarded header is the client's own claim: the socket decides
    expect(mailboxVisibleTo("127.0.0.1", "203.0.113.5")).toBe(true);
  });

  it("behind a proxy that names the client in X-Real-IP only, does not take Next.js's X-Forwarded-For for it", () => {
    // nginx's usual `proxy_set_header X-Real-IP $remote_addr;` sends no X-Forwarded-For; Next.js then fills it in
    // with the socket's address, which is the proxy's own loopback one
    const viaProxy = (realIp: string) =>
      new Headers({ "x-mcp-preflight-socket-ip": "127.0.0.1", "x-forwarded-for": "127.0.0.1", "x-real-ip": realIp });
    process.env.TRUST_PROXY = "1";
    try {
      expect(mailboxVisibleToRequest(viaProxy("203.0.113.5"))).toBe(false);
      expect(mailboxVisibleToRequest(viaProxy("127.0.0.1"))).toBe(true);
      expect(mailboxVisibleToRequest(new Headers({ "x-mcp-preflight-socket-ip": "127.0.0.1" }))).toBe(true);
    } finally {
      delete process.env.TRUST_PROXY;
    }
  });

  it("sends a new key to the account's e-mail for a lost one (never the log), and it works", async () => {
    const a = await createAccount({ email: "lost@example.test" }, { db });
    const { key } = await createApiKey(a.id, { db });
    const sent = await mailNewKey(a.id, "lost", { db });
    expect(sent.to).toBe("lost@example.test");
    const [mail] = await db.select().from(devMailbox);
    expect(mail.subject).toMatch(/new .*API key/i);
    const replacement = mail.text.match(/catk_[0-9A-Za-z]+/)![0];
    expect(isWellFormedApiKey(replacement)).toBe(true);
    expect(replacement).not.toBe(key);
    expect(replacement.slice(0, 11)).toBe(sent.prefix);
    expect(mail.url).toMatch(/\/account$/);
    // both keys work (the account cannot say which it lost: it revokes that one itself)
    for (const k of [key, replacement]) expect((await resolveCaller({ apiKey: k, ip: "192.0.2.1" }, { db })).caller.accountId).toBe(a.id);
    expect(logged.join("\n")).not.toContain(replacement);
  });

  it("sends a key created on the account page to the account's e-mail, its only copy, and it works", async () => {
    const a = await createAccount({ email: "made@example.test" }, { db });
    const sent = await mailNewKey(a.id, "created", { db });
    const [mail] = await db.select().from(devMailbox).where(eq(devMailbox.to, "made@example.test"));
    expect(mail.subject).toBe("Your mcp-preflight API key");
    expect(mail.text).toMatch(/only place it appears/);
    const key = mail.text.match(/catk_[0-9A-Za-z]+/)![0];
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(key.slice(0, 11)).toBe(sent.prefix);
    expect((await resolveCaller({ apiKey: key, ip: "192.0.2.1" }, { db })).caller.accountId).toBe(a.id);
    expect(logged.join("\n")).not.toContain(key);
  });

  it("sends one address at most 5 account mails an hour, sign-in links and replacement keys together", async () => {
    const a = await createAccount({ email: "busy@example.test" }, { db });
    for (let i = 0; i < 3; i++) expect((await askForLink("Busy@Example.test")).redirect).toMatch(/verify-request/);
    await mailNewKey(a.id, "lost", { db });
    await mailNewKey(a.id, "lost", { db });
    await expect(mailNewKey(a.id, "lost", { db })).rejects.toMatchObject({ code: "rate_limited" });
    expect((await askForLink("Busy@Example.test")).redirect).toBe(`/signin?error=TooManyAccountMails&retry=${encodeURIComponent(thisHourEnds())}`);
    expect(await db.$count(devMailbox)).toBe(5);
    expect(await db.$count(verificationTokens)).toBe(3);
    // no key was made for the refused request
    expect(await db.$count(apiKeys, eq(apiKeys.accountId, a.id))).toBe(2);
    // another address is not affected, and the next hour starts afresh
    expect(await takeAccountMail("other@example.test", { db })).toBe(true);
    expect(await takeAccountMail("busy@example.test", { db, now: new Date(Date.now() + 3_600_000) })).toBe(true);
  });

  it("does not count a key refused for the account's limit among the hour's account mails", async () => {
    const a = await createAccount({ email: "full@example.test" }, { db });
    for (let i = 0; i < MAX_API_KEYS_PER_ACCOUNT; i++) await createApiKey(a.id, { db });
    for (let i = 0; i < 5; i++) await expect(mailNewKey(a.id, "created", { db })).rejects.toMatchObject({ code: "invalid_request" });
    expect(await db.$count(devMailbox)).toBe(0);
    // the sign-in link and, after revoking one, the new key still go out
    expect(await takeAccountMail("full@example.test", { db })).toBe(true);
    const [oldest] = await listApiKeys(a.id, { db });
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, oldest.keyId));
    await expect(mailNewKey(a.id, "created", { db })).resolves.toMatchObject({ to: "full@example.test" });
  });

  it("revokes the new key when its mail cannot be sent, and says so", async () => {
    const a = await createAccount({ email: "nomail@example.test" }, { db });
    process.env.SMTP_URL = "smtp://127.0.0.1:9";
    await expect(mailNewKey(a.id, "lost", { db })).rejects.toThrow();
    const keys = await db.select().from(apiKeys).where(eq(apiKeys.accountId, a.id));
    expect(keys).toHaveLength(1);
    expect(keys[0].revokedAt).not.toBeNull();
  });
});

describe("mail with SMTP_URL", () => {
  it("sends through the SMTP server and keeps nothing in the dev mailbox", async () => {
    const received: { from?: string; to: string[]; data: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, done) {
        let data = "";
        stream.on("data", (c) => (data += c));
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.server.address() as AddressInfo;
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}?ignoreTLS=true`;
    try {
      const result = await sendMail({ to: "b@example.test", subject: "Sign in to mcp-preflight", text: "open http://x/link", url: "http://x/link" });
      expect(result.delivered).toBe("smtp");
      expect(received).toHaveLength(1);
      expect(received[0].to).toEqual(["b@example.test"]);
      expect(received[0].data).toContain("Subject: Sign in to mcp-preflight");
      expect(received[0].data).toContain("open http://x/link");
      expect(await db.select().from(devMailbox)).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("a mail server that stops answering", () => {
  it("fails the send within the mail budget (3 × WEBHOOK_TIMEOUT_MS) instead of holding the sign-in for minutes", async () => {
    // greets, then reads every command and answers none (nodemailer's own default would wait 10 minutes)
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.on("data", () => {});
      socket.write("220 stalled.example.test ESMTP\r\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    process.env.SMTP_URL = `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.env.WEBHOOK_TIMEOUT_MS = "200";
    try {
      const started = Date.now();
      const outcome = await Promise.race([
        sendMail({ to: "slow@example.test", subject: "Sign in to mcp-preflight", text: "t" }).then(
          () => "sent",
          (err: Error) => `failed: ${err.message}`,
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve("still waiting"), 5_000)),
      ]);
      expect(outcome).toMatch(/^failed: .*timeout/i);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      delete process.env.WEBHOOK_TIMEOUT_MS;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("asking next-auth for a sign-in link", () => {
  it("sends links only to plain addresses, so spellings of one address share its 5 mails an hour", async () => {
    const smtp = await startSmtpSink();
    process.env.SMTP_URL = smtp.url;
    vi.spyOn(console, "error").mockImplementation(() => {}); // next-auth logs each refusal
    try {
      // next-auth's own check lets each through, and nodemailer sends each to victim@example.test
      for (const spelling of ["1 <victim@example.test>", "2 <victim@example.test>", "victim@example.test (3)", "x\r\nbcc: y <victim@example.test>"]) {
        expect((await askForLink(spelling)).redirect).toMatch(/error=EmailSignin/);
      }
      expect(smtp.messages).toEqual([]);
      for (const spelling of ["victim@example.test", " Victim@Example.test ", "ｖｉｃｔｉｍ@example.test"]) {
        expect((await askForLink(spelling)).redirect).toMatch(/verify-request/);
      }
      expect(smtp.messages.map((m) => [m.to, mailHeader(m.raw, "To")])).toEqual(Array(3).fill([["victim@example.test"], "victim@example.test"]));
      for (let i = 0; i < 3; i++) await askForLink("victim@example.test");
      expect(smtp.messages).toHaveLength(5);
    } finally {
      delete process.env.SMTP_URL;
      await smtp.close();
    }
  });
  it("counts the tagged and dotted spellings of one mailbox (victim+1@, v.ictim@gmail) under that mailbox's 5 mails an hour", async () => {
    const smtp = await startSmtpSink();
    process.env.SMTP_URL = smtp.url;
    vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      // each is a plain address of its own, and each reaches victim@example.test's inbox (or victim@gmail.com's)
      const tagged = Array.from({ length: 7 }, (_, i) => `victim+${i + 1}@example.test`);
      const answers = [];
      for (const address of tagged) answers.push((await askForLink(address)).redirect);
      expect(answers.map((r) => /verify-request/.test(r ?? ""))).toEqual([true, true, true, true, true, false, false]);
      expect(await askForLink("victim@example.test")).toMatchObject({ redirect: expect.stringMatching(/error=TooManyAccountMails/) });
      for (const address of ["v.ictim@gmail.com", "vi.ct.im@googlemail.com", "victim+a@gmail.com", "VICTIM@gmail.com", "victim@gmail.com", "v.i.c.t.i.m@gmail.com"]) {
        await askForLink(address);
      }
      expect(smtp.messages).toHaveLength(10);
      // another mailbox of the same domain is not affected
      expect((await askForLink("victimb@example.test")).redirect).toMatch(/verify-request/);
    } finally {
      delete process.env.SMTP_URL;
      await smtp.close();
    }
  });

  // One client asked for links to any number of addresses (each within its own 5 an hour), and every request,
  // refused ones too, wrote a verification token that lasts a day: mail to strangers and rows without end.
  it(`refuses one client's link requests past ${SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR} an hour, whatever the addresses, and writes no token for a refused one`, async () => {
    for (let i = 0; i < SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR; i++) {
      expect((await askForLink(`stranger${i}@example.test`, "198.51.100.7")).redirect, `request ${i + 1}`).toMatch(/verify-request/);
    }
    const refused = await askForLink("one-more@example.test", "198.51.100.7");
    expect(refused.redirect).toBe(`/signin?error=TooManySignInRequests&retry=${encodeURIComponent(thisHourEnds())}`);
    expect(await db.$count(verificationTokens)).toBe(SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR);
    expect(await db.$count(devMailbox)).toBe(SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR);
    // the refused request spent nothing of that inbox's 5, and another client is not affected
    for (let i = 0; i < 5; i++) expect((await askForLink("one-more@example.test", "198.51.100.8")).redirect).toMatch(/verify-request/);
    // the next hour starts afresh
    expect(await takeSignInRequest("198.51.100.7", "later@example.test", { db, now: new Date(Date.now() + 3_600_000) })).toBeNull();
  });

  it("writes no token for a request the inbox's allowance refuses", async () => {
    for (let i = 0; i < 5; i++) await askForLink("victim@example.test", `192.0.2.${20 + i}`);
    expect((await askForLink("victim@example.test", "192.0.2.30")).redirect).toMatch(/error=TooManyAccountMails/);
    expect(await db.$count(verificationTokens)).toBe(5);
    expect(await db.$count(devMailbox)).toBe(5);
  });

  it("refuses alike an address with an account and one without, so a refusal tells nothing of accounts", async () => {
    await createAccount({ email: "member@example.test" }, { db });
    for (const address of ["member@example.test", "nobody@example.test"]) {
      for (let i = 0; i < 5; i++) expect((await askForLink(address, `192.0.2.${address.length + i}`)).redirect).toMatch(/verify-request/);
    }
    const inbox = [await askForLink("member@example.test", "192.0.2.40"), await askForLink("nobody@example.test", "192.0.2.40")];
    expect(inbox[0]).toEqual(inbox[1]);
    expect(inbox[0].redirect).toMatch(/^\/signin\?error=TooManyAccountMails&retry=/);
    for (let i = 0; i < SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR - 2; i++) await askForLink(`other${i}@example.test`, "192.0.2.40");
    const client = [await askForLink("member@example.test", "192.0.2.40"), await askForLink("nobody@example.test", "192.0.2.40")];
    expect(client[0]).toEqual(client[1]);
    expect(client[0].redirect).toMatch(/^\/signin\?error=TooManySignInRequests&retry=/);
  });
});
