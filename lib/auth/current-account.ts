import { eq } from "drizzle-orm";
import { getServerSession } from "next-auth";
import { getDb } from "@/lib/db/client";
import { accounts, type AccountRow } from "@/lib/db/schema";
import { authOptions } from "./auth-options";

/** The signed-in account of this page request or server action, or null. */
export async function currentAccount(): Promise<AccountRow | null> {
  const session = await getServerSession(authOptions());
  const id = (session?.user as { id?: string } | undefined)?.id;
  if (!id) return null;
  const db = await getDb();
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row ?? null;
}
