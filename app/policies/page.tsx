import type { Metadata } from "next";
import { getPolicyCatalog } from "@/lib/services/get-policy-catalog";
import { DECISION_MEANINGS } from "@/lib/engine/decision";

export const metadata: Metadata = {
  title: "Policies",
  description: "The three immutable preflight policies (baseline@1, first-party@1, strict@1) and the ruleset they run.",
};

const FIELD_WORDS: Record<string, Record<string, string>> = {
  identity_requirement: { any: "any publisher", first_party: "first party required" },
  hosted_liveness: { observe_only: "observed, not required", require_fresh_live: "a live observation at most 48 h old required" },
  unknown_required: { review: "REVIEW", block: "BLOCK (fails closed)" },
};

/** GET /v1/policies, readable: the same getPolicyCatalog() the API answers with. */
export default function PoliciesPage() {
  const catalog = getPolicyCatalog();
  const { policies, ruleset, policy_digests } = catalog;
  const findings = Object.keys(policies[0].findings) as (keyof (typeof policies)[0]["findings"])[];
  return (
    <>
      <h1>Policies</h1>
      <p>
        Every decision names one of three built-in policies. They are immutable: a different rule set would be a new revision with a new name
        and digest. All three run the same ruleset and share the nine findings; they differ in what identity they require, whether hosted
        endpoints must be freshly live, and what a missing required fact does. Machine-readable: <a href="/v1/policies">GET /v1/policies</a>.
      </p>
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Policies table">
        <table className="data" data-testid="policies">
          <caption>The three policies (revision 1)</caption>
          <thead>
            <tr>
              <th scope="col">Policy</th>
              {policies.map((p) => (
                <th scope="col" key={p.id}>
                  {p.name}
                  <div className="small muted">
                    <code>{p.id}</code>
                  </div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(["identity_requirement", "hosted_liveness", "unknown_required"] as const).map((field) => (
              <tr key={field}>
                <th scope="row">
                  <code>{field}</code>
                </th>
                {policies.map((p) => (
                  <td key={p.id}>
                    <code>{p[field]}</code>
                    <div className="small muted">{FIELD_WORDS[field][p[field]]}</div>
                  </td>
                ))}
              </tr>
            ))}
            <tr>
              <th scope="row">
                <code>max_liveness_age_hours</code>
              </th>
              {policies.map((p) => (
                <td key={p.id}>{p.max_liveness_age_hours ?? "—"}</td>
              ))}
            </tr>
            {findings.map((f) => (
              <tr key={f}>
                <th scope="row">
                  finding <code>{f}</code>
                </th>
                {policies.map((p) => (
                  <td key={p.id} className={`d-${p.findings[f].toUpperCase()}`}>
                    {p.findings[f]}
                  </td>
                ))}
              </tr>
            ))}
            <tr>
              <th scope="row">digest</th>
              {policies.map((p) => (
                <td key={p.id} className="wrap small">
                  <code>{policy_digests[p.id]}</code>
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>

      <h2>
        The ruleset: <code>{ruleset.id}</code> revision {ruleset.revision}
      </h2>
      <p>{ruleset.reason_order}</p>
      <h3>What a reason&apos;s result means</h3>
      <dl>
        {Object.entries(ruleset.results).map(([k, v]) => (
          <div key={k}>
            <dt>
              <span className={`pill r-${k}`}>{k}</span>
            </dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <p>
        The decision: any <strong>block</strong> → BLOCK; else any <strong>review</strong> → REVIEW; a required fact that is{" "}
        <strong>unknown</strong> takes the policy&apos;s <code>unknown_required</code>; else PASS. What each decision means, always:
      </p>
      <dl data-testid="decision-meanings">
        {(Object.entries(DECISION_MEANINGS) as [string, string][]).map(([decision, meaning]) => (
          <div key={decision}>
            <dt>
              <strong className={`d-${decision}`}>{decision}</strong>
            </dt>
            <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
      <h3>Rules, in order</h3>
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Rules table">
        <table className="data" data-testid="ruleset">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Rule</th>
              <th scope="col">Applies to</th>
              <th scope="col">Finding</th>
              <th scope="col">Required</th>
              <th scope="col">What it checks</th>
            </tr>
          </thead>
          <tbody>
            {ruleset.rules.map((r) => (
              <tr key={r.code}>
                <td>{r.order}</td>
                <th scope="row">
                  <code>{r.code}</code>
                  <div className="small muted">{r.stage.replace("_", " ")}</div>
                </th>
                <td>{r.applies_to}</td>
                <td>{r.finding ? <code>{r.finding}</code> : "—"}</td>
                <td className="small">{r.required ?? "never"}</td>
                <td className="small">{r.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
