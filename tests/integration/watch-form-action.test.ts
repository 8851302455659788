import { beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { accounts, watches } from "@/lib/db/schema";
import { resetDb } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog } from "../helpers/catalog-fixture";

// The /watches form's server action with a signed-in account (the session itself is next-auth's, tested in
// the browser test): what the form sends is what the API would be sent.
const session = vi.hoisted(() => ({ accountId: null as string | null }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("@/lib/auth/current-account", async () => {
  const { getDb } = await import("@/lib/db/client");
  return {
    currentAccount: async () => {
      if (!session.accountId) return null;
      const [row] = await (await getDb()).select().from(accounts).where(eq(accounts.id, session.accountId));
      return row ?? null;
    },
  };
});
const { createWatchAction } = await import("@/app/watches/actions");

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
});

function form(fields: Record<string, string | string[]>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) f.append(k, x);
  return f;
}

describe("the watch form's action", () => {
  it("refuses a form with every event box unticked instead of watching every kind", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    session.accountId = a.accountId;
    const none = await createWatchAction({}, form({ server_name: "io.github.acme/weather", email: "ops@example.com" }));
    expect(none.error).toBe("Tick at least one event kind.");
    // what was typed comes back, for the form to show again
    expect(none.values).toEqual({ server_name: "io.github.acme/weather", webhook_url: "", email: "ops@example.com", events: [], label: "" });
    expect(await db.select().from(watches)).toEqual([]);
    const two = await createWatchAction({}, form({ server_name: "io.github.acme/weather", email: "ops@example.com", events: ["remote_down", "security"] }));
    expect(two.created).toBe(true);
    expect(two.watch!.events).toEqual(["remote_down", "security"]);
  });

  it("answers a visitor whose session ended without doing anything", async () => {
    session.accountId = null;
    expect(await createWatchAction({}, form({ server_name: "io.github.acme/weather", email: "ops@example.com", events: "security" }))).toEqual({
      error: "Your session ended; sign in again.",
    });
  });
});
