import { visit } from "jsonc-parser";

/**
 * Where a JSON text first names one member twice in an object (as `evaluation.decision`), or null. JSON.parse
 * keeps the last of them silently, so a saved evaluation could show `"decision": "PASS"` to its reader and
 * verify as the BLOCK written after it; RFC 8785, which the digests use, takes I-JSON input, which has no
 * duplicate names. Call it on text JSON.parse accepted (the visitor recurses, so very deep nesting throws).
 */
export function firstDuplicateMember(text: string): string | null {
  const seen: Set<string>[] = [];
  let found: string | null = null;
  visit(text, {
    onObjectBegin: () => void seen.push(new Set()),
    onObjectEnd: () => void seen.pop(),
    onObjectProperty: (name, _offset, _length, _line, _column, pathSupplier) => {
      const names = seen[seen.length - 1];
      if (found === null && names.has(name)) found = showPath([...pathSupplier(), name]);
      names.add(name);
    },
  });
  return found;
}

/** A path as verify's mismatches write one: `evaluation.reasons[0].summary`. */
function showPath(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i ? `.${p}` : p)).join("");
}
