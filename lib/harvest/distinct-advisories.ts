/**
 * The advisories of one look-up, one id per flaw. OSV lists a flaw under each database's id (a PyPI flaw as its
 * GHSA and its PYSEC, each naming the CVE, the PYSEC also the GHSA) and a querybatch answers every one of them
 * (reference/upstream-apis.md §5.3: de-duplicate with `aliases`): counted as found, one hole was two advisories
 * on the card and the preflight. Ids are the same flaw when one names the other or both name a third; each flaw
 * keeps the first of its ids in sort order, so the id it is known by does not move between look-ups. An id whose
 * record was never read has no known aliases and counts on its own: two counted where one is meant, never one hole
 * hidden behind another.
 */
export function distinctAdvisories(ids: readonly string[], aliasesOf: (id: string) => readonly string[]): string[] {
  const sorted = [...new Set(ids)].sort();
  const names = sorted.map((id) => new Set([id, ...aliasesOf(id)]));
  // union-find over the ids: a chain (A names C, B names C) joins A and B whatever the order
  const parent = sorted.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  for (let i = 0; i < sorted.length; i++) {
    for (let j = 0; j < i; j++) {
      const [a, b] = [root(i), root(j)];
      if (a !== b && [...names[i]].some((n) => names[j].has(n))) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  return sorted.filter((_, i) => root(i) === i);
}
