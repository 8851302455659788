"use client";

import { useEffect, useId, useRef, useState } from "react";
import { serverPagePath } from "@/lib/cards/links";
import { verifiedWords } from "@/lib/cards/verified-words";
import { SEARCH_BOX_LIMIT, queryLength, queryRefusal, searchErrorText, type SearchBoxAnswer, type SearchBoxResult as Result } from "./search-answer";

// GET /v1/search spends one of an anonymous IP's 10 daily lookups per distinct query, so the box waits for a
// pause in typing, needs 2 characters, never asks the same query twice, and cancels answers overtaken by typing.
// Without JavaScript the same form is sent as GET /?q=, which the home page answers itself (app/home-search.ts).
const DEBOUNCE_MS = 450;
const MIN_CHARS = 2;

type State =
  | { kind: "idle" }
  | { kind: "loading"; q: string }
  | { kind: "done"; q: string; results: Result[] }
  | { kind: "error"; q: string; message: string };

function answered(initial: SearchBoxAnswer | undefined): State {
  if (initial && "results" in initial) return { kind: "done", q: initial.q.trim(), results: initial.results };
  if (initial && "error" in initial) return { kind: "error", q: initial.q.trim(), message: initial.error };
  return { kind: "idle" };
}

/** Keeps the address bar's `?q=` on the query shown, so a reload or a shared link asks it again (on the server). */
function keepQueryInUrl(q: string) {
  const url = new URL(window.location.href);
  if ((url.searchParams.get("q") ?? "") === q) return;
  if (q) url.searchParams.set("q", q);
  else url.searchParams.delete("q");
  window.history.replaceState(null, "", url);
}

/**
 * `initial`: the page's own answer to `/?q=`, shown as the box would have shown it (and not asked again).
 * `maxChars`: the API's longest query (SEARCH_QUERY_MAX, from the page: lib/config is not for the browser).
 */
export function SearchBox({ initial, maxChars }: { initial?: SearchBoxAnswer; maxChars: number }) {
  const id = useId();
  const [q, setQ] = useState(initial?.q ?? "");
  const [state, setState] = useState<State>(() => answered(initial));
  const cache = useRef(new Map<string, Result[]>(initial && "results" in initial ? [[initial.q.trim(), initial.results]] : []));
  const inflight = useRef<AbortController | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // the page answered (or refused) its query already: the first run would only repeat it
  const skipFirstRun = useRef(state.kind !== "idle");

  async function run(query: string) {
    const key = query.trim();
    if (queryLength(key) < MIN_CHARS) {
      inflight.current?.abort();
      setState({ kind: "idle" });
      keepQueryInUrl("");
      return;
    }
    keepQueryInUrl(key);
    // refused before asking, in the page's words: GET /v1/search would answer 400 and spend nothing either
    const refusal = queryRefusal(key, MIN_CHARS, maxChars);
    if (refusal) {
      inflight.current?.abort();
      setState({ kind: "error", q: key, message: refusal });
      return;
    }
    // a request for an earlier query still out is overtaken whether this one is asked or answered from memory:
    // its late answer would otherwise replace these results under the query the box shows
    inflight.current?.abort();
    const hit = cache.current.get(key);
    if (hit) {
      setState({ kind: "done", q: key, results: hit });
      return;
    }
    const ctrl = new AbortController();
    inflight.current = ctrl;
    setState({ kind: "loading", q: key });
    try {
      const res = await fetch(`/v1/search?${new URLSearchParams({ q: key, limit: String(SEARCH_BOX_LIMIT) })}`, { signal: ctrl.signal, headers: { accept: "application/json" } });
      const body = await res.json().catch(() => null);
      // cancelled while its body was read (json() then fails, and body reads as null): not this query's answer
      if (ctrl.signal.aborted) return;
      if (!res.ok || !body?.ok) {
        setState({ kind: "error", q: key, message: searchErrorText(res.status, body) });
        return;
      }
      cache.current.set(key, body.results);
      setState({ kind: "done", q: key, results: body.results });
    } catch (err) {
      if ((err as Error).name !== "AbortError") setState({ kind: "error", q: key, message: `search failed: ${(err as Error).message}` });
    }
  }

  useEffect(() => {
    if (timer.current) clearTimeout(timer.current);
    if (skipFirstRun.current) {
      skipFirstRun.current = false;
      return;
    }
    timer.current = setTimeout(() => void run(q), DEBOUNCE_MS);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q]);

  return (
    <div className="search">
      <form
        role="search"
        method="get"
        action="/"
        onSubmit={(e) => {
          e.preventDefault();
          if (timer.current) clearTimeout(timer.current);
          void run(q);
        }}
      >
        <label htmlFor={`${id}-q`}>Search servers by name, title or description</label>
        <div className="search-row">
          <input
            id={`${id}-q`}
            type="search"
            name="q"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            placeholder="e.g. github, weather, io.github.owner/name"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-hint`}
            aria-controls={`${id}-results`}
          />
          <button type="submit">Search</button>
        </div>
        <p id={`${id}-hint`} className="small muted">
          At least {MIN_CHARS} characters. Without an API key each distinct query uses one of your 10 free lookups a day.
        </p>
      </form>
      <div id={`${id}-results`} aria-live="polite" aria-busy={state.kind === "loading"}>
        {state.kind === "loading" && <p className="muted">Searching for “{state.q}”…</p>}
        {state.kind === "error" && (
          <p className="notice error" role="alert" data-testid="search-error">
            {state.message}
          </p>
        )}
        {state.kind === "done" && state.results.length === 0 && <p data-testid="search-empty">No listed server matches “{state.q}”.</p>}
        {state.kind === "done" && state.results.length > 0 && (
          <>
            <p className="small muted">
              {state.results.length} result{state.results.length === 1 ? "" : "s"} for “{state.q}”
            </p>
            <ol className="results" data-testid="search-results">
              {state.results.map((r) => (
                <li key={r.server_name} data-testid="search-result">
                  <a href={serverPagePath(r.server_name)} className="wrap">
                    {r.server_name}
                  </a>
                  {r.title && <span> · {r.title}</span>}
                  <div className="small">
                    {/* verified is said either way: nothing after a false one read the same for "no" and "not yet known" */}
                    <span className={`h-${r.health}`}>health {r.health}</span> · trust {r.trust_score}/100 · verified {verifiedWords(r)}
                  </div>
                  {r.description && <div className="small muted wrap">{r.description}</div>}
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </div>
  );
}
