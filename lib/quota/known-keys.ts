import type { Tier } from "@/lib/config";

/**
 * Which key and account a key hash belongs to, as the last full admission found them. That mapping never
 * changes for a key's life, so it is kept in process and lets a keyed call skip its own admission
 * statement: the statement that pays for the call re-checks the key (not revoked, still there), counts
 * the burst window and reads the tier (lib/quota/charge-caller.ts `admission`). Nothing here is trusted
 * without that check. Bounded; the oldest entry goes first.
 */
export interface KnownKey {
  keyId: string;
  accountId: string;
  tier: Tier;
}

const MAX_KNOWN_KEYS = 10_000;
const known = new Map<string, KnownKey>();

export function rememberKey(hash: string, key: KnownKey): void {
  known.delete(hash);
  if (known.size >= MAX_KNOWN_KEYS) known.delete(known.keys().next().value!);
  known.set(hash, key);
}

export function knownKey(hash: string): KnownKey | undefined {
  return known.get(hash);
}

export function forgetKey(hash: string): void {
  known.delete(hash);
}
