import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { dataDir } from "@/lib/config";

/**
 * The secret that signs session cookies and hashes magic-link tokens:
 * NEXTAUTH_SECRET, or on the embedded default one generated once and kept in
 * DATA_DIR (so sign-ins survive a restart). A deployment must set NEXTAUTH_SECRET.
 */
export function authSecret(): string {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  if (process.env.VERCEL) throw new Error("set NEXTAUTH_SECRET (any long random string) for account sign-in");
  const file = path.join(dataDir(), "auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir(), { recursive: true });
    const secret = randomBytes(32).toString("hex");
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return fs.readFileSync(file, "utf8").trim(); // another process won the race
    }
  }
}
