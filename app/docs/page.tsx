import type { Metadata } from "next";
import { siteUrl } from "@/lib/config";
import { openApiDocument } from "@/lib/openapi/build-openapi-document";
import { listMcpTools } from "@/lib/mcp/list-tools";
import { SchemaView, typeLabel } from "./schema-view";
import { ToolOutput } from "./tool-output";
import { BADGE_STYLES } from "@/lib/services/render-badge";
import { BADGE_CACHE_SECONDS, BADGE_NOT_FOUND_CACHE_SECONDS } from "@/lib/config";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API documentation", description: "The REST API (OpenAPI 3.1) and the MCP tools of mcp-preflight." };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const AUTH_WORDS: Record<string, string> = { none: "no key", optional: "optional x-api-key", required: "x-api-key required" };

/** The OpenAPI document served at /v1/openapi.json, rendered, and the tools /mcp lists. */
export default async function DocsPage() {
  const base = siteUrl();
  const doc = openApiDocument(base) as Json;
  const tools = await listMcpTools();
  const ops: { path: string; method: string; op: Json }[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) for (const [method, op] of Object.entries(item as Json)) ops.push({ path, method, op });
  const tags: string[] = doc.tags.map((t: Json) => t.name);
  const components = doc.components.schemas as Record<string, Json>;
  return (
    <>
      <h1>API documentation</h1>
      <p>
        {doc.info.description} API version {doc.info.version}; base URL <code>{base}</code>. The machine-readable description is{" "}
        <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1, generated from the same zod schemas the routes parse with).
      </p>
      <p>
        Send an account API key as <code>x-api-key</code> (create one on the <a href="/account">account page</a>). Without a key a client IP
        gets 10 distinct lookups a day. Every error answers with the <a href="#schema-Error">Error</a> body.
      </p>
      <nav aria-label="On this page" className="toc">
        <ul>
          {tags.map((t) => (
            <li key={t}>
              <a href={`#tag-${t.replace(/\s+/g, "-")}`}>{t}</a>
            </li>
          ))}
          <li>
            <a href="#mcp">MCP tools</a>
          </li>
          <li>
            <a href="#badge">Badge</a>
          </li>
          <li>
            <a href="#schemas">Schemas</a>
          </li>
        </ul>
      </nav>

      {tags.map((t) => (
        <section key={t} aria-labelledby={`tag-${t.replace(/\s+/g, "-")}`}>
          <h2 id={`tag-${t.replace(/\s+/g, "-")}`}>{t}</h2>
          {ops
            .filter((o) => o.op.tags[0] === t)
            .map(({ path, method, op }) => (
              <article key={`${method} ${path}`} className="operation" id={op.operationId} data-testid="operation" data-path={path} data-method={method}>
                <h3 className="wrap">
                  <code>
                    {method.toUpperCase()} {path}
                  </code>
                </h3>
                <p>
                  <strong>{op.summary}.</strong> {op.description}
                </p>
                <p className="small">
                  {AUTH_WORDS[op["x-auth"]]} · {op["x-cost"]}
                  {op["x-mcp-tool"] ? (
                    <>
                      {" "}
                      · MCP tool <a href={`#tool-${op["x-mcp-tool"]}`}>{op["x-mcp-tool"]}</a>
                    </>
                  ) : null}
                </p>
                {op.parameters && (
                  <div className="table-wrap" tabIndex={0} role="region" aria-label={`Parameters of ${method.toUpperCase()} ${path}`}>
                    <table className="data">
                      <caption>Parameters</caption>
                      <thead>
                        <tr>
                          <th scope="col">Name</th>
                          <th scope="col">In</th>
                          <th scope="col">Type</th>
                          <th scope="col">Notes</th>
                        </tr>
                      </thead>
                      <tbody>
                        {op.parameters.map((p: Json) => (
                          <tr key={`${p.in}:${p.name}`}>
                            <th scope="row">
                              <code>{p.name}</code>
                              {p.required ? "" : <span className="small muted"> optional</span>}
                            </th>
                            <td>{p.in}</td>
                            <td className="small">{typeLabel(p.schema)}</td>
                            <td className="small">
                              {p.description}
                              {p.schema?.default !== undefined ? ` (default ${JSON.stringify(p.schema.default)})` : ""}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
                {op.requestBody && (
                  <p className="small">
                    Body ({Object.keys(op.requestBody.content).join(", ")}):{" "}
                    {op.requestBody.content["application/json"] ? typeLabel(op.requestBody.content["application/json"].schema) : op.requestBody.description}
                  </p>
                )}
                <ul className="small">
                  {Object.entries(op.responses as Json).map(([status, r]) => {
                    const resp = r.$ref ? doc.components.responses[r.$ref.split("/").pop()] : r;
                    const json = resp.content?.["application/json"]?.schema;
                    return (
                      <li key={status}>
                        <strong>{status}</strong> {resp.description}
                        {json && !r.$ref ? <> → {typeLabel(json)}</> : null}
                        {resp.content?.["text/plain"]?.example ? (
                          <>
                            {" "}
                            → text, e.g. <code className="wrap">{resp.content["text/plain"].example}</code>
                          </>
                        ) : null}
                      </li>
                    );
                  })}
                </ul>
              </article>
            ))}
        </section>
      ))}

      <section aria-labelledby="mcp">
        <h2 id="mcp">MCP tools</h2>
        <p>
          The MCP endpoint is <code>{base}/mcp</code> (streamable HTTP). Set the same <code>x-api-key</code> header in the client
          configuration; the tools run through the same quota and services as the REST API. A tool&apos;s structured content is its REST
          twin&apos;s resource, or the Error body when the call fails (its <code>outputSchema</code> in <code>tools/list</code> says which), and
          the result&apos;s text repeats it as JSON after a summary line. {tools.length} tools:
        </p>
        {tools.map((t) => (
          <article key={t.name} id={`tool-${t.name}`} className="operation" data-testid="mcp-tool" data-tool={t.name}>
            <h3>
              <code>{t.name}</code>
              {t.title ? <span className="muted small"> · {t.title}</span> : null}
            </h3>
            {t.description && <p className="small">{t.description}</p>}
            <h4 className="small">Input</h4>
            {t.inputSchema.properties && Object.keys(t.inputSchema.properties).length > 0 ? (
              <SchemaView schema={t.inputSchema as Json} />
            ) : (
              <p className="small">No arguments.</p>
            )}
            <h4 className="small">Output</h4>
            <ToolOutput schema={t.outputSchema as Json | undefined} />
          </article>
        ))}
      </section>

      {/* the contract's one endpoint outside /v1 (so not in the OpenAPI document): an image for READMEs */}
      <section aria-labelledby="badge">
        <h2 id="badge">Badge</h2>
        <p className="wrap">
          <code>GET {base}/badge/&lt;server_name&gt;.svg</code> (no key, unmetered): an SVG of the server&apos;s{" "}
          <a href="/policies">baseline@1</a> decision (PASS, REVIEW or BLOCK) linking to its page. The name keeps its slash, each part
          between slashes percent-encoded (<code>/badge/io.github.owner/name.svg</code>); every server page gives the Markdown for a README.
        </p>
        <ul className="small">
          <li>
            <code>show=health</code>: the card&apos;s health (healthy, issues, unknown) instead of the decision.
          </li>
          <li>
            <code>style</code>:{" "}
            {BADGE_STYLES.map((st, i) => (
              <span key={st}>
                {i > 0 && ", "}
                <code>{st}</code>
              </span>
            ))}{" "}
            (default <code>{BADGE_STYLES[0]}</code>). Any other parameter or value is ignored, never refused: the badge always draws.
          </li>
          <li>
            A name not in the catalog: a grey &ldquo;not in catalog&rdquo; SVG with status 404, cached {BADGE_NOT_FOUND_CACHE_SECONDS / 60} minutes.
            Otherwise cached {BADGE_CACHE_SECONDS.maxAge / 3600} hour, with an ETag.
          </li>
        </ul>
      </section>

      <section aria-labelledby="schemas">
        <h2 id="schemas">Schemas</h2>
        {Object.entries(components).map(([name, schema]) => (
          <details key={name} id={`schema-${name}`}>
            <summary>
              <code>{name}</code>
            </summary>
            <SchemaView schema={schema} />
          </details>
        ))}
      </section>
    </>
  );
}
