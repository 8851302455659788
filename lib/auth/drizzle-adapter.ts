import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Adapter, AdapterUser } from "next-auth/adapters";
import { createAccount, normalizeEmail } from "@/lib/accounts/create-account";
import { getDb } from "@/lib/db/client";
import { accounts, sessions, verificationTokens, type AccountRow } from "@/lib/db/schema";

function toUser(row: AccountRow): AdapterUser {
  return { id: row.id, email: row.email, emailVerified: row.emailVerifiedAt, name: row.name };
}

/** Sessions are stored by the SHA-256 of their cookie token (lib/db/schema/sessions.ts). */
const tokenHash = (sessionToken: string) => createHash("sha256").update(sessionToken, "utf8").digest("hex");

/**
 * A next-auth v4 adapter over our own tables, for the e-mail sign-in with
 * database sessions: accounts are next-auth's users, magic-link tokens live in
 * verification_tokens, sessions in sessions. No OAuth accounts, so those
 * methods are absent.
 */
export function drizzleAuthAdapter(): Adapter {
  return {
    async createUser(user: Omit<AdapterUser, "id">) {
      const row = await createAccount({
        email: user.email,
        name: user.name ?? null,
        emailVerifiedAt: user.emailVerified ?? null,
      });
      return toUser(row);
    },
    async getUser(id) {
      const db = await getDb();
      const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
      return row ? toUser(row) : null;
    },
    async getUserByEmail(email) {
      // the sign-in form's address, asked for outside next-auth's error handling (a thrown query is a 500): no
      // account holds a NUL, and Postgres text cannot; the token write after it fails inside, as a sign-in error
      if (email.includes("\u0000")) return null;
      const db = await getDb();
      const [row] = await db.select().from(accounts).where(eq(accounts.email, normalizeEmail(email)));
      return row ? toUser(row) : null;
    },
    async getUserByAccount() {
      return null;
    },
    async updateUser(user) {
      const db = await getDb();
      const set: Partial<AccountRow> = {};
      if (user.emailVerified !== undefined) set.emailVerifiedAt = user.emailVerified;
      if (user.name !== undefined) set.name = user.name;
      const [row] = Object.keys(set).length
        ? await db.update(accounts).set(set).where(eq(accounts.id, user.id)).returning()
        : await db.select().from(accounts).where(eq(accounts.id, user.id));
      return toUser(row);
    },
    async createSession({ sessionToken, userId, expires }) {
      const db = await getDb();
      await db.insert(sessions).values({ tokenHash: tokenHash(sessionToken), accountId: userId, expires });
      return { sessionToken, userId, expires };
    },
    async getSessionAndUser(sessionToken) {
      const db = await getDb();
      const [row] = await db
        .select({ expires: sessions.expires, account: accounts })
        .from(sessions)
        .innerJoin(accounts, eq(accounts.id, sessions.accountId))
        .where(eq(sessions.tokenHash, tokenHash(sessionToken)));
      return row ? { session: { sessionToken, userId: row.account.id, expires: row.expires }, user: toUser(row.account) } : null;
    },
    async updateSession({ sessionToken, expires }) {
      const db = await getDb();
      const hash = tokenHash(sessionToken);
      const [row] = expires
        ? await db.update(sessions).set({ expires }).where(eq(sessions.tokenHash, hash)).returning()
        : await db.select().from(sessions).where(eq(sessions.tokenHash, hash));
      return row ? { sessionToken, userId: row.accountId, expires: row.expires } : null;
    },
    async deleteSession(sessionToken) {
      const db = await getDb();
      await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash(sessionToken)));
    },
    async createVerificationToken(token) {
      const db = await getDb();
      await db.insert(verificationTokens).values({
        identifier: normalizeEmail(token.identifier),
        token: token.token,
        expires: token.expires,
      });
      return token;
    },
    async useVerificationToken({ identifier, token }) {
      // delete-returning: a link works once, also when clicked twice at the same time
      const db = await getDb();
      const [row] = await db
        .delete(verificationTokens)
        .where(and(eq(verificationTokens.identifier, normalizeEmail(identifier)), eq(verificationTokens.token, token)))
        .returning();
      return row ?? null;
    },
  };
}
