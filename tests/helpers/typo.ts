/** The fake upstreams' seeded PRNG (mulberry32), so samples and typos are the same on every run. */
export { rng as seededRandom } from "../../scripts/fake-upstreams/generate";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** One random edit: substitute, delete, insert or swap two neighbours; never the same string. */
export function oneTypo(s: string, rnd: () => number): string {
  for (;;) {
    const i = Math.floor(rnd() * s.length);
    const letter = LETTERS[Math.floor(rnd() * LETTERS.length)];
    const kind = Math.floor(rnd() * 4);
    let out: string;
    if (kind === 0) out = s.slice(0, i) + letter + s.slice(i + 1);
    else if (kind === 1 && s.length > 2) out = s.slice(0, i) + s.slice(i + 1);
    else if (kind === 2) out = s.slice(0, i) + letter + s.slice(i);
    else if (i + 1 < s.length) out = s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
    else continue;
    if (out !== s && out.toLowerCase() !== s.toLowerCase()) return out;
  }
}

/** `n` distinct items of `xs`, chosen by `rnd`. */
export function sample<T>(xs: readonly T[], n: number, rnd: () => number): T[] {
  const copy = [...xs];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}
