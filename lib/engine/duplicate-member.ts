import { visit } from "jsonc-parser";

/** Where a member sits in a JSON text: its names and array indexes from the root. */
export type MemberPath = (string | number)[];

/**
 * Every place a JSON text names one member again in an object (`[evaluation, decision]`), in text order. JSON.parse
 * keeps the last of them silently. Call it on text JSON.parse accepted (the visitor recurses, so very deep nesting
 * throws).
 */
export function duplicateMembers(text: string): MemberPath[] {
  const seen: Set<string>[] = [];
  const found: MemberPath[] = [];
  visit(text, {
    onObjectBegin: () => void seen.push(new Set()),
    onObjectEnd: () => void seen.pop(),
    onObjectProperty: (name, _offset, _length, _line, _column, pathSupplier) => {
      const names = seen[seen.length - 1];
      if (names.has(name)) found.push([...pathSupplier(), name]);
      names.add(name);
    },
  });
  return found;
}

/**
 * Where a JSON text first names one member twice in an object (as `evaluation.decision`), or null. JSON.parse
 * keeps the last of them silently, so a saved evaluation could show `"decision": "PASS"` to its reader and
 * verify as the BLOCK written after it; RFC 8785, which the digests use, takes I-JSON input, which has no
 * duplicate names. Call it on text JSON.parse accepted (the visitor recurses, so very deep nesting throws).
 */
export function firstDuplicateMember(text: string): string | null {
  const [first] = duplicateMembers(text);
  return first ? showPath(first) : null;
}

/** A path as verify's mismatches write one: `evaluation.reasons[0].summary`. */
export function showPath(path: MemberPath): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i ? `.${p}` : p)).join("");
}
