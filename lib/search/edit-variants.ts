import { foldName } from "@/lib/facts/fold-name";

/** Characters a folded key can hold: a–z and 2–9 (0, 1 and i fold to o and l). */
const KEY_ALPHABET = "abcdefghjklmnopqrstuvwxyz23456789";

/** Keys longer than this get no edit neighbourhood: trigrams already tolerate one typo in a long name. */
export const MAX_EDIT_KEY_LENGTH = 16;

/**
 * Every folded key one edit away from the query's folded key (delete, substitute, insert a character or
 * swap two neighbours). Looking these up in the btree index on servers.name_fold finds a server whose
 * whole name part is the query with one typo, however short: trigrams cannot, since one typo in a
 * three-letter name changes most of its trigrams.
 */
export function oneEditKeys(query: string): string[] {
  const key = foldName(query);
  if (!/^[a-z2-9]+$/.test(key)) return [];
  return oneEditVariants(key, KEY_ALPHABET);
}

/**
 * Every string one edit away from `key` over `alphabet` (delete, substitute, insert, swap two neighbours),
 * none shorter than 2; nothing for keys outside 2..MAX_EDIT_KEY_LENGTH.
 */
export function oneEditVariants(key: string, alphabet: string): string[] {
  if (key.length < 2 || key.length > MAX_EDIT_KEY_LENGTH) return [];
  const out = new Set<string>();
  for (let i = 0; i <= key.length; i++) {
    const head = key.slice(0, i);
    const tail = key.slice(i);
    if (i < key.length) {
      out.add(head + tail.slice(1));
      for (const c of alphabet) out.add(head + c + tail.slice(1));
      if (i + 1 < key.length) out.add(head + tail[1] + tail[0] + tail.slice(2));
    }
    for (const c of alphabet) out.add(head + c + tail);
  }
  out.delete(key);
  for (const k of [...out]) if (k.length < 2) out.delete(k);
  return [...out];
}
