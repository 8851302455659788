import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/db/client";
import { siteUrl } from "@/lib/config";
import { getServerPage } from "@/lib/services/get-server-page";
import type { PreflightResultBody } from "@/lib/engine";
import { CHECKED_PACKAGE_ECOSYSTEMS } from "@/lib/engine/facts";
import type { HealthCard } from "@/lib/schemas/health-card";
import { evidenceTimeRows } from "@/lib/cards/evidence-time-rows";
import { verifiedWords } from "@/lib/cards/verified-words";
import { remoteLivenessWords } from "@/lib/cards/remote-liveness-words";
import { CopyButton } from "@/app/_components/copy-button";
import { Time } from "@/app/_components/time";
import { compactJson, externalHref, serverPagePath } from "@/app/_components/format";
import { badgeMarkdown, metaDescription, nameFromSegments, ogImagePath } from "./server-name";
import s from "./server.module.css";
import { ChangeRow } from "@/app/_components/change-row";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ name: string[] }> };

// metadata and the page read the same view in one request: the same instant, one database read
const loadView = cache(async (name: string) => getServerPage(await getDb(), name));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const name = nameFromSegments((await params).name);
  const view = await loadView(name);
  if (!view) return { title: "Server not found" };
  const baseline = view.decisions[0];
  const description = metaDescription(baseline.decision, view.card);
  const image = `${siteUrl()}${ogImagePath(name)}`;
  return {
    title: name,
    description,
    openGraph: { title: `${name} · mcp-preflight`, description, images: [{ url: image, width: 1200, height: 630, alt: `${name}: ${baseline.decision}` }], type: "website" },
    twitter: { card: "summary_large_image", title: name, description, images: [image] },
  };
}

export default async function ServerPage({ params }: Props) {
  const name = nameFromSegments((await params).name);
  const view = await loadView(name);
  if (!view) notFound();
  const { card, decisions, changes } = view;
  return (
    <article className={s.page} data-testid="server-page" data-server-name={card.server_name} data-now={view.now}>
      <header>
        <p className="muted small">
          MCP server · namespace <code>{card.namespace}</code>
          {card.namespace_verification ? ` (verified by ${card.namespace_verification === "github" ? "GitHub login" : "DNS"})` : " (not verified)"}
          {card.version ? ` · version ${card.version}` : ""}
        </p>
        <h1 className="wrap">{card.server_name}</h1>
        {card.title && <p className="lead">{card.title}</p>}
        {card.description && <p>{card.description}</p>}
        <ul className={s.facts}>
          <li>
            Health{" "}
            <strong className={`h-${card.health}`} data-testid="health">
              {card.health}
            </strong>
          </li>
          <li>
            Verified <strong data-testid="verified">{verifiedWords(card)}</strong>
          </li>
          <li>
            Trust score <strong data-testid="trust-score">{card.trust_score}</strong>/100
          </li>
          <li>
            Registry <strong data-testid="registry-status">{card.registry_status}</strong>
            {card.delisted_at ? (
              <span className="muted small">
                {" "}
                (noticed <Time iso={card.delisted_at} />)
              </span>
            ) : null}
          </li>
        </ul>
      </header>

      <section aria-labelledby="decisions">
        <h2 id="decisions">Decisions</h2>
        <p className="muted small">
          What <code>POST /v1/preflight</code> answers for these facts now, under each built-in policy. A PASS is a public-evidence policy
          result: not a security finding, not an install or execution authorization, not a sandbox. Stop on BLOCK, ask a human on REVIEW.{" "}
          <a href="/policies">What each policy requires</a>.
        </p>
        <ul className={s.decisions}>
          {decisions.map((d) => (
            <li
              key={d.policy.id}
              className={s.decision}
              data-testid="decision"
              data-policy={d.policy.id}
              data-decision={d.decision}
              data-facts-digest={d.facts_digest}
              data-evaluated-at={d.evaluated_at}
              data-valid-until={d.valid_until}
            >
              <span className="muted small">{policyName(d)}</span>
              <strong className={`${s.verdict} d-${d.decision}`}>{d.decision}</strong>
              <span className="small">{topReason(d)}</span>
              <span className="muted small">
                valid until <Time iso={d.valid_until} />
              </span>
            </li>
          ))}
        </ul>
        {decisions.map((d, i) => (
          <details key={d.policy.id} open={i === 0} className={s.reasons}>
            <summary>
              Reasons under <strong>{policyName(d)}</strong>: <span className={`d-${d.decision}`}>{d.decision}</span> ({d.reasons.length})
            </summary>
            <p className="small">{d.meaning}</p>
            <ol data-testid="reasons" data-policy={d.policy.id}>
              {d.reasons.map((r, k) => (
                <li key={k} data-testid="reason" data-code={r.code} data-result={r.result}>
                  <span className={`pill r-${r.result}`}>{r.result}</span> <code>{r.code}</code>
                  {r.artifact_id ? (
                    <>
                      {" "}
                      <span className="muted small wrap">({r.ecosystem ? `${r.ecosystem} ` : ""}{r.artifact_id})</span>
                    </>
                  ) : null}
                  <div className="wrap">{r.summary}</div>
                  {r.evidence.length > 0 && (
                    <ul className={`${s.evidence} small`}>
                      {r.evidence.map((e, j) => (
                        <li key={j} className="wrap">
                          {e.source && <strong>{e.source}</strong>}
                          {e.value !== undefined && <> <code>{compactJson(e.value)}</code></>}
                          {e.url && (
                            <>
                              {" "}
                              <ExternalLink url={e.url}>source</ExternalLink>
                            </>
                          )}
                          {/* null: looked for and not observed, which "observed never" said as if it were a time */}
                          {e.observed_at !== undefined &&
                            (e.observed_at ? (
                              <>
                                {" "}· observed <Time iso={e.observed_at} />
                              </>
                            ) : (
                              " · not observed"
                            ))}
                          {e.attempted_at ? (
                            <>
                              {" "}· attempted <Time iso={e.attempted_at} />
                            </>
                          ) : null}
                          {e.freshness_enforced ? " · freshness enforced" : ""}
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ol>
            <dl className={`${s.digests} small`}>
              <dt>Evaluated</dt>
              <dd>
                <Time iso={d.evaluated_at} /> (engine {d.engine_version})
              </dd>
              <dt>Policy digest</dt>
              <dd className="wrap">
                <code>{d.policy.digest}</code>
              </dd>
              <dt>Facts digest</dt>
              <dd className="wrap">
                <code>{d.facts_digest}</code>
              </dd>
              <dt>Decision input digest</dt>
              <dd className="wrap">
                <code>{d.decision_input_digest}</code>
              </dd>
              {d.limitations.length > 0 && (
                <>
                  <dt>Limitations</dt>
                  <dd>
                    <ul>
                      {d.limitations.map((l, k) => (
                        <li key={k}>{l}</li>
                      ))}
                    </ul>
                  </dd>
                </>
              )}
            </dl>
          </details>
        ))}
      </section>

      <section aria-labelledby="trust">
        <h2 id="trust">Trust score: {card.trust_score}/100</h2>
        <p className="muted small">
          A summary of public evidence in four pillars of 25 points; every point comes from one factor below. It is not a security finding
          and never changes a decision.
        </p>
        <div className={s.pillars}>
          {card.trust_pillars.map((p) => (
            <div key={p.pillar} className={s.pillar} data-testid="pillar" data-pillar={p.pillar} data-points={p.points} data-max={p.max}>
              <h3>
                {p.pillar} <span className="muted">{p.points}/{p.max}</span>
              </h3>
              <div className={s.bar} role="img" aria-label={`${p.pillar}: ${p.points} of ${p.max} points`}>
                <span style={{ width: `${Math.round((p.points / p.max) * 100)}%` }} />
              </div>
              <ul className={s.factors}>
                {card.trust_factors
                  .filter((f) => f.pillar === p.pillar)
                  .map((f) => (
                    <li key={f.factor} data-testid="factor" data-factor={f.factor} data-points={f.points}>
                      <span>
                        <code>{f.factor}</code> <strong>{f.points}</strong>/{f.max} <span className="muted small">{f.status.replace("_", " ")}</span>
                      </span>
                      <span className="small muted wrap">{f.evidence}</span>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
        </div>
      </section>

      <section aria-labelledby="health">
        <h2 id="health">Health</h2>
        <p>
          <strong className={`h-${card.health}`}>{card.health}</strong>
          {card.health === "healthy" && ": no problem observed, and the core evidence is known."}
          {card.health === "unknown" && ": nothing bad was seen, and not enough was seen to call it healthy."}
          {card.health === "issues" && ": problems were observed."}
        </p>
        {card.health_problems.length > 0 && (
          <ul data-testid="health-problems">
            {card.health_problems.map((p) => (
              <li key={p} data-testid="health-problem">
                <code>{p}</code>
              </li>
            ))}
          </ul>
        )}
        <EvidenceTimes card={card} />
      </section>

      <Artifacts card={card} />

      <section aria-labelledby="lookalikes">
        <h2 id="lookalikes">Lookalikes</h2>
        {card.name_collision_count === 0 ? (
          <p>No other listed server has a name that reads the same.</p>
        ) : (
          <>
            <p>
              {card.name_collision_count} other listed {card.name_collision_count === 1 ? "server has" : "servers have"} a name that reads the
              same once case, separators and look-alike characters are folded. Check you have the one you mean.
              {/* the card carries the first 100 names; the count is the full number */}
              {card.lookalike_names.length < card.name_collision_count
                ? ` Only the first ${card.lookalike_names.length} are listed here.`
                : ""}
            </p>
            <ul data-testid="lookalikes">
              {card.lookalike_names.map((n) => (
                <li key={n}>
                  <a href={serverPagePath(n)}>{n}</a>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <section aria-labelledby="changes">
        <h2 id="changes">Recent changes</h2>
        {changes.changes.length === 0 ? (
          <p>No change of this server has been observed yet.</p>
        ) : (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Changes of this server">
            <table className="data" data-testid="server-changes">
              <thead>
                <tr>
                  <th scope="col">Observed</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Before → after</th>
                </tr>
              </thead>
              <tbody>
                {[...changes.changes].reverse().map((c) => (
                  <ChangeRow key={c.id} change={c} showServer={false} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p>
          <a href={`/changes?server_name=${encodeURIComponent(card.server_name)}`}>All changes of this server</a>
        </p>
      </section>

      <section aria-labelledby="badge">
        <h2 id="badge">Badge</h2>
        <p>
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src={new URL(card.links.badge).pathname} alt={`mcp preflight badge of ${card.server_name}`} height={20} />
        </p>
        <label htmlFor="badge-markdown">Markdown for a README</label>
        <textarea id="badge-markdown" className={s.markdown} readOnly rows={3} value={badgeMarkdown(card)} data-testid="badge-markdown" />
        <p>
          <CopyButton text={badgeMarkdown(card)} label="Copy badge Markdown" />
        </p>
        <p className="small muted">
          The badge shows the baseline@1 decision; add <code>?show=health</code> to its URL for health instead.
        </p>
      </section>

      <section aria-labelledby="api">
        <h2 id="api">In the API</h2>
        <ul className="small wrap">
          <li>
            <code>GET {new URL(card.links.api).pathname + new URL(card.links.api).search}</code>: this card
          </li>
          <li>
            <code>POST /v1/preflight</code> with <code>{JSON.stringify({ server_name: card.server_name, policy_id: "builtin:baseline" })}</code>: the
            decision, with an audit id when sent with a key
          </li>
          {externalHref(card.links.registry) && (
            <li>
              <a href={externalHref(card.links.registry)!}>The registry listing</a>
            </li>
          )}
          <li>
            <a href={`/watches?server=${encodeURIComponent(card.server_name)}`}>Watch this server</a> (sign in): a webhook or e-mail when it
            changes
          </li>
        </ul>
      </section>
    </article>
  );
}

const POLICY_NAMES: Record<string, string> = { "builtin:baseline": "baseline@1", "builtin:first-party": "first-party@1", "builtin:strict": "strict@1" };
const policyName = (d: PreflightResultBody) => POLICY_NAMES[d.policy.id] ?? d.policy.id;

/** The reason that decided a REVIEW or BLOCK, or what a PASS means. */
function topReason(d: PreflightResultBody): string {
  const want = d.decision === "BLOCK" ? ["block", "unknown"] : d.decision === "REVIEW" ? ["review", "unknown"] : [];
  const r = d.reasons.find((x) => want.includes(x.result));
  return r ? r.summary : "every rule passes on the facts";
}

function EvidenceTimes({ card }: { card: HealthCard }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Evidence times">
      <table className="data">
        <caption>When each source was last observed (the oldest where several artifacts are involved)</caption>
        <tbody>
          {evidenceTimeRows(card).map(({ label, at, text }) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{at ? <Time iso={at} /> : <span className="muted">{text}</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A link to a URL from catalog data, only when it is http(s) (externalHref); anything else (a `javascript:` or
 * `data:` URL in a listing) is shown as the URL's text, never as something to click.
 */
function ExternalLink({ url, children }: { url: string; children: React.ReactNode }) {
  const href = externalHref(url);
  if (!href) return <code className="wrap" data-testid="unlinked-url">{url}</code>;
  return (
    <a href={href} rel="nofollow noopener">
      {children}
    </a>
  );
}

const yesNo = (v: boolean | null, yes: string, no: string) => (v === null ? "not observed" : v ? yes : no);

/**
 * What the card holds of the repository, every value it does not know said as unknown: a host that answered
 * without an archive state, star count or last push left those out of "exists", which then read as all there was.
 */
function RepositoryState({ repo }: { repo: NonNullable<HealthCard["repository"]> }) {
  if (repo.exists === null) {
    return (
      <>
        not observed yet
        {repo.attempted_at ? (
          <span className="muted small">
            {" "}
            (last attempt <Time iso={repo.attempted_at} />)
          </span>
        ) : null}
      </>
    );
  }
  const observed = (
    <span className="muted small">
      {" "}
      (observed <Time iso={repo.observed_at} />)
    </span>
  );
  if (!repo.exists) return <>gone{observed}</>;
  return (
    <>
      exists, {repo.archived === null ? "archive state unknown" : repo.archived ? "archived" : "not archived"},{" "}
      {repo.stars === null ? "star count unknown" : `${repo.stars.toLocaleString("en")} stars`},{" "}
      {repo.pushed_at ? (
        <>
          last push <Time iso={repo.pushed_at} />
        </>
      ) : (
        "last push unknown"
      )}
      {observed}
    </>
  );
}

function Artifacts({ card }: { card: HealthCard }) {
  const repo = card.repository;
  return (
    <section aria-labelledby="artifacts">
      <h2 id="artifacts">Repository, packages and remotes</h2>
      <h3>Repository</h3>
      {repo ? (
        <p className="wrap" data-testid="repository">
          <ExternalLink url={repo.url}>{repo.url}</ExternalLink>: <RepositoryState repo={repo} />
        </p>
      ) : (
        <p>The listing names no repository, so none of its evidence is known.</p>
      )}
      <p className="small">
        First party:{" "}
        {card.identity.first_party === null ? "not established" : card.identity.first_party ? "yes" : "no"}
        {card.identity.basis ? ` (${card.identity.basis.replaceAll("_", " ")})` : ""}.
      </p>
      <h3>Packages</h3>
      {card.packages.length === 0 ? (
        <p>No package is listed.</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Packages">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Package</th>
                <th scope="col">Version</th>
                <th scope="col">Exists</th>
                <th scope="col">Deprecated</th>
                <th scope="col">Advisories</th>
                <th scope="col">Observed</th>
              </tr>
            </thead>
            <tbody>
              {card.packages.map((p) => (
                <tr key={`${p.ecosystem}:${p.identifier}`}>
                  <td className="wrap">
                    <span className="muted small">{p.ecosystem}</span>{" "}
                    {externalHref(p.url) ? (
                      <ExternalLink url={p.url!}>{p.identifier}</ExternalLink>
                    ) : (
                      <code>{p.identifier}</code>
                    )}
                  </td>
                  <td>{p.version ?? <span className="muted">none named</span>}</td>
                  {(CHECKED_PACKAGE_ECOSYSTEMS as readonly string[]).includes(p.ecosystem) ? (
                    <>
                      <td>{yesNo(p.exists, "yes", "no")}</td>
                      <td>{yesNo(p.deprecated, "yes", "no")}</td>
                      <td className="wrap">
                        {p.advisories === null ? <span className="muted">not looked up</span> : p.advisories.length ? p.advisories.join(", ") : "none"}
                        {p.advisories_observed_at ? (
                          <span className="muted small">
                            {" "}
                            (looked up <Time iso={p.advisories_observed_at} />)
                          </span>
                        ) : null}
                      </td>
                      <td>{p.observed_at ? <Time iso={p.observed_at} /> : <span className="muted">not observed</span>}</td>
                    </>
                  ) : (
                    // "not observed" in four cells promised a look-up that never comes: an oci image, nuget or mcpb
                    // artifact is not looked up at all (it counts neither way in health and verified)
                    <td colSpan={4} className="muted">
                      not looked up: only jspkg and pypkg packages are checked
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Remotes</h3>
      {card.remotes.length === 0 ? (
        <p>No hosted endpoint is listed.</p>
      ) : (
        <ul>
          {card.remotes.map((r) => (
            <li key={r.url} className="wrap">
              <code>{r.url}</code> <span className="muted small">{r.type}</span>:{" "}
              {remoteLivenessWords(r)}
              {r.observed_at ? (
                <>
                  {" "}
                  <span className="muted small">
                    observed <Time iso={r.observed_at} />
                  </span>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {card.website_url && (
        <p>
          Website:{" "}
          <ExternalLink url={card.website_url}>{card.website_url}</ExternalLink>
        </p>
      )}
    </section>
  );
}
