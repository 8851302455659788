// What a tool answers, from its outputSchema in tools/list: anyOf the REST resource and the Error body, each
// titled with its schema's name in /v1/openapi.json, so both link to that schema below.

type Schema = Record<string, unknown>;

export function ToolOutput({ schema }: { schema: Schema | undefined }) {
  const [resource, error] = ((schema?.anyOf as Schema[] | undefined) ?? []).map((s) => (typeof s.title === "string" ? s.title : null));
  if (!resource) return <p className="small">No structured content.</p>;
  return (
    <p className="small" data-testid="tool-output">
      <a href={`#schema-${resource}`}>{resource}</a>
      {error ? (
        <>
          , or <a href={`#schema-${error}`}>{error}</a> when <code>isError</code> is true
        </>
      ) : null}
    </p>
  );
}
