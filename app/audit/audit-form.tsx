"use client";

import { useActionState, useEffect, useId, useRef, useState, type DragEvent, type FormEvent } from "react";
import { formatAuditText } from "@/lib/config-audit/format-text";
import type { AuditResult } from "@/lib/schemas/config-audit";
import styles from "./audit.module.css";
import { auditEntryFlags } from "./audit-entry-flags";
import { auditErrorText } from "./audit-error-text";
import { auditFormRefusal } from "./audit-form-refusal";
import { auditConfigAction, type AuditActionState } from "./actions";

const MAX_BYTES = 256 * 1024;
const EXIT_MEANING: Record<number, string> = {
  0: "exit code 0: nothing blocks",
  1: "exit code 1: at least one server is BLOCK",
  2: "exit code 2 (strict): at least one server needs REVIEW or is UNKNOWN",
};

/**
 * Paste or drop a config, POST it to /v1/audit, show a verdict table; the text form downloads as a file. Without
 * JavaScript the form is sent to a server action (./actions.ts) instead, and the page comes back with its answer.
 * `filenameMax`: the API's longest file name (AUDIT_FILENAME_MAX_CHARS, from the page).
 */
export function AuditForm({ refused, filenameMax }: { refused?: string; filenameMax: number }) {
  const id = useId();
  // changed only by a form sent without JavaScript: the page is rendered anew with it (or, for a post too large
  // to read, sent back by middleware.ts with the refusal)
  const [sent, formAction] = useActionState<AuditActionState, FormData>(auditConfigAction, refused ? { error: refused } : {});
  const [text, setText] = useState(sent.values?.config ?? "");
  const [filename, setFilename] = useState(sent.values?.filename ?? "");
  const [policy, setPolicy] = useState(sent.values?.policy_id ?? "builtin:baseline");
  const [strict, setStrict] = useState(sent.values?.strict ?? false);
  const [apiKey, setApiKey] = useState("");
  const [dragging, setDragging] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(sent.error ?? null);
  const [result, setResult] = useState<AuditResult | null>(sent.result ?? null);
  // what needs the script (the empty-box check on the button, the download) waits for it
  const [hydrated, setHydrated] = useState(false);
  const resultsRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => setHydrated(true), []);
  // why the button waits (an empty box, a file name too long), said beside it; the action says the same without
  // the script. Before the script runs the button is enabled: the action answers then.
  const refusal = hydrated ? auditFormRefusal({ config: text, hasFile: false, filename }, filenameMax) : null;

  // move focus to the results once they are on screen, so keyboard and screen-reader users land on them
  useEffect(() => {
    if (result) resultsRef.current?.focus();
  }, [result]);

  async function readFile(file: File | undefined) {
    if (!file) return;
    if (file.size > MAX_BYTES) {
      setError(`${file.name} is ${file.size.toLocaleString("en")} bytes; the audit takes files up to 256 KiB.`);
      return;
    }
    setText(await file.text());
    setFilename(file.name);
    setError(null);
  }

  function onDrop(e: DragEvent<HTMLTextAreaElement>) {
    e.preventDefault();
    setDragging(false);
    void readFile(e.dataTransfer.files?.[0]);
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // nothing the API would refuse is sent, whatever submitted the form
    if (refusal) return;
    setPending(true);
    setError(null);
    setResult(null);
    const params = new URLSearchParams({ policy_id: policy });
    if (strict) params.set("strict", "1");
    if (filename.trim()) params.set("filename", filename.trim());
    try {
      const headers: Record<string, string> = { accept: "application/json", "content-type": "text/plain; charset=utf-8" };
      if (apiKey.trim()) headers["x-api-key"] = apiKey.trim();
      const res = await fetch(`/v1/audit?${params}`, { method: "POST", body: text, headers });
      const body = await res.json().catch(() => null);
      if (!res.ok || !body?.ok) {
        setError(auditErrorText(res.status, body));
      } else {
        setResult(body as AuditResult);
      }
    } catch (err) {
      setError(`The audit could not be sent: ${(err as Error).message}`);
    } finally {
      setPending(false);
    }
  }

  function download() {
    if (!result) return;
    const blob = new Blob([formatAuditText(result.entries)], { type: "text/plain;charset=utf-8" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${(filename || "mcp-config").replace(/[^\w.-]+/g, "_")}.audit.txt`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  return (
    <>
      <form className={styles.form} action={formAction} onSubmit={onSubmit} aria-describedby={`${id}-hint`}>
        <div className={styles.field}>
          <label htmlFor={`${id}-config`}>Config file contents</label>
          <textarea
            id={`${id}-config`}
            name="config"
            className={`${styles.config} ${dragging ? styles.dragging : ""}`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            placeholder='{ "mcpServers": { "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"] } } }'
          />
          <p id={`${id}-hint`} className={styles.hint}>
            Paste the file, drop it on the box, or choose it below. JSON, JSON with comments, TOML or YAML; up to 256 KiB.
          </p>
        </div>
        <div className={styles.row}>
          <div className={styles.field}>
            <label htmlFor={`${id}-file`}>Choose a file</label>
            <input id={`${id}-file`} name="file" type="file" accept=".json,.jsonc,.toml,.yaml,.yml,application/json,text/plain" onChange={(e) => void readFile(e.target.files?.[0])} />
          </div>
          <div className={styles.field}>
            <label htmlFor={`${id}-name`}>File name or path (optional)</label>
            <input
              id={`${id}-name`}
              name="filename"
              type="text"
              value={filename}
              onChange={(e) => setFilename(e.target.value)}
              placeholder=".vscode/mcp.json"
              aria-describedby={`${id}-name-hint`}
            />
            <span id={`${id}-name-hint`} className={styles.hint}>
              Tells which client reads the file.
            </span>
          </div>
        </div>
        <div className={styles.row}>
          <div className={styles.field}>
            <label htmlFor={`${id}-policy`}>Policy</label>
            <select id={`${id}-policy`} name="policy_id" value={policy} onChange={(e) => setPolicy(e.target.value)}>
              <option value="builtin:baseline">baseline@1</option>
              <option value="builtin:first-party">first-party@1</option>
              <option value="builtin:strict">strict@1</option>
            </select>
          </div>
          <div className={styles.field}>
            <label htmlFor={`${id}-key`}>API key (optional)</label>
            <input id={`${id}-key`} name="api_key" type="password" autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} placeholder="catk_…" />
          </div>
          <label>
            <input type="checkbox" name="strict" value="1" checked={strict} onChange={(e) => setStrict(e.target.checked)} /> Strict: REVIEW and UNKNOWN fail too
          </label>
        </div>
        <div className={styles.actions}>
          <button type="submit" disabled={pending || refusal !== null} aria-describedby={refusal ? `${id}-why` : undefined}>
            {pending ? "Auditing…" : "Audit"}
          </button>
          <span id={`${id}-why`} className={styles.hint} aria-live="polite" data-testid="audit-why">
            {refusal}
          </span>
        </div>
      </form>

      <div aria-live="polite">
        {error && (
          <p className="notice error" role="alert" data-testid="audit-error">
            {error}
          </p>
        )}
        {result && (
          <section aria-labelledby={`${id}-results`}>
            <h2 id={`${id}-results`} ref={resultsRef} tabIndex={-1}>
              Verdicts
            </h2>
            <p className={styles.summary} data-testid="audit-summary">
              {result.counts.total} {result.counts.total === 1 ? "entry" : "entries"}: {result.counts.PASS} PASS, {result.counts.REVIEW} REVIEW,{" "}
              {result.counts.BLOCK} BLOCK, {result.counts.UNKNOWN} UNKNOWN. Layout <code>{result.layout}</code> ({result.format}), policy{" "}
              <code>{result.policy.id}</code>; {EXIT_MEANING[result.exit_code]}.
            </p>
            {hydrated && (
              <div className={styles.actions}>
                <button type="button" onClick={download}>
                  Download as text
                </button>
              </div>
            )}
            {result.entries.length > 0 && (
              <div className={styles.tableWrap}>
                <table className={styles.table}>
                  <caption>One row per server entry, in file order</caption>
                  <thead>
                    <tr>
                      <th scope="col">Verdict</th>
                      <th scope="col">Entry</th>
                      <th scope="col">Server</th>
                      <th scope="col">Matched by</th>
                      <th scope="col">Why</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.entries.map((e, i) => (
                      <tr key={`${e.map_key}:${e.key}:${i}`}>
                        <td data-label="Verdict" className={`${styles.verdict} ${styles[e.verdict]}`}>
                          {e.verdict}
                        </td>
                        <th scope="row" data-label="Entry" className={styles.key}>
                          {e.key}
                          {(!e.honoured || e.disabled) && <span className={styles.flags}>{auditEntryFlags(e, result.layout).join("; ")}</span>}
                        </th>
                        <td data-label="Server">
                          {e.server_name ?? "—"}
                        </td>
                        <td data-label="Matched by">
                          {e.resolved_by ? (
                            <>
                              {e.resolved_by} <code>{e.identifier}</code>
                              {e.confidence && e.confidence !== "high" ? ` (${e.confidence} confidence)` : ""}
                            </>
                          ) : (
                            <>
                              {e.kind}
                              {e.identifier ? (
                                <>
                                  {" "}
                                  <code>{e.identifier}</code>
                                </>
                              ) : null}
                            </>
                          )}
                        </td>
                        <td data-label="Why">
                          <ul>
                            {e.reasons.map((r, k) => (
                              <li key={`r${k}`}>{r.summary}</li>
                            ))}
                            {e.notes.map((n, k) => (
                              <li key={`n${k}`} className={styles.flags}>
                                {n}
                              </li>
                            ))}
                          </ul>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        )}
      </div>
    </>
  );
}
