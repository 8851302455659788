// Renders JSON Schema (as in the OpenAPI document) as nested lists a person can read: each property with its
// type, whether it is required, its constraints, and the properties of nested objects.

type Schema = Record<string, unknown>;

const refName = (ref: string) => ref.split("/").pop()!;

export function typeLabel(s: Schema | undefined): React.ReactNode {
  if (!s || Object.keys(s).length === 0) return "any JSON";
  if (typeof s.$ref === "string") {
    const n = refName(s.$ref);
    return <a href={`#schema-${n}`}>{n}</a>;
  }
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    const list = ((s.anyOf ?? s.oneOf) as Schema[]).map((x, i) => <span key={i}>{i > 0 && " or "}{typeLabel(x)}</span>);
    // bounds on the union itself (an integer query parameter: a number or digits) bind every alternative
    const range = bounds(s);
    return (
      <>
        {list}
        {range ? <span className="muted"> ({range})</span> : null}
      </>
    );
  }
  if ("const" in s) return <code>{JSON.stringify(s.const)}</code>;
  if (Array.isArray(s.enum)) return <>one of {(s.enum as unknown[]).map((v, i) => <span key={i}>{i > 0 && ", "}<code>{JSON.stringify(v)}</code></span>)}</>;
  const t = Array.isArray(s.type) ? (s.type as string[]).join(" or ") : (s.type as string | undefined);
  if (t === "array") return <>array of {typeLabel(s.items as Schema)}</>;
  const bits: string[] = [];
  if (s.format) bits.push(String(s.format));
  if (s.pattern && !s.format) bits.push(`pattern ${s.pattern}`);
  if (s.minLength !== undefined || s.maxLength !== undefined) bits.push(`length ${s.minLength ?? 0}–${s.maxLength ?? "∞"}`);
  const range = bounds(s);
  if (range) bits.push(range);
  if (s.minItems !== undefined || s.maxItems !== undefined) bits.push(`${s.minItems ?? 0}–${s.maxItems ?? "∞"} items`);
  return (
    <>
      {t ?? "any"}
      {bits.length ? <span className="muted"> ({bits.join(", ")})</span> : null}
    </>
  );
}

/**
 * "1–50" from minimum/maximum. zod writes every integer's safe-integer range (±9007199254740991) as its bounds:
 * that says nothing to a reader, so it is left out.
 */
function bounds(s: Schema): string | null {
  const min = s.minimum === -Number.MAX_SAFE_INTEGER ? undefined : s.minimum;
  const max = s.maximum === Number.MAX_SAFE_INTEGER ? undefined : s.maximum;
  if (min === undefined && max === undefined) return null;
  return `${min ?? "−∞"}–${max ?? "∞"}`;
}

function childObject(s: Schema | undefined): Schema | null {
  if (!s) return null;
  if (s.type === "object" && s.properties) return s;
  if (s.type === "array" && s.items && (s.items as Schema).type === "object" && (s.items as Schema).properties) return s.items as Schema;
  for (const alt of ((s.anyOf ?? s.oneOf) as Schema[] | undefined) ?? []) {
    const c = childObject(alt);
    if (c) return c;
  }
  return null;
}

export function SchemaView({ schema, depth = 0 }: { schema: Schema; depth?: number }) {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = Object.keys(props);
  if (names.length === 0) {
    if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
      return <p className="small">map of string to {typeLabel(schema.additionalProperties as Schema)}</p>;
    }
    return <p className="small">{typeLabel(schema)}</p>;
  }
  return (
    <ul className="schema">
      {names.map((n) => {
        const p = props[n];
        const nested = childObject(p);
        return (
          <li key={n}>
            <code>{n}</code> <span className="small">{typeLabel(p)}</span>
            {required.has(n) ? <span className="small"> · required</span> : <span className="small muted"> · optional</span>}
            {"default" in p && <span className="small muted"> · default {JSON.stringify(p.default)}</span>}
            {typeof p.description === "string" && <div className="small muted">{p.description}</div>}
            {nested && depth < 4 && <SchemaView schema={nested} depth={depth + 1} />}
          </li>
        );
      })}
      {schema.additionalProperties === false && <li className="small muted">no other fields</li>}
    </ul>
  );
}
