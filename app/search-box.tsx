"use client";

import { useEffect, useId, useRef, useState } from "react";
import { waitText } from "./_components/wait-text";
import { serverPagePath } from "@/lib/cards/links";

// GET /v1/search spends one of an anonymous IP's 10 daily lookups per distinct query, so the box waits for a
// pause in typing, needs 2 characters, never asks the same query twice, and cancels answers overtaken by typing.
const DEBOUNCE_MS = 450;
const MIN_CHARS = 2;

interface Result {
  server_name: string;
  title: string | null;
  description: string | null;
  health: string;
  verified: boolean;
  trust_score: number;
  match: string;
}

type State =
  | { kind: "idle" }
  | { kind: "loading"; q: string }
  | { kind: "done"; q: string; results: Result[] }
  | { kind: "error"; q: string; message: string };

export function SearchBox() {
  const id = useId();
  const [q, setQ] = useState("");
  const [state, setState] = useState<State>({ kind: "idle" });
  const cache = useRef(new Map<string, Result[]>());
  const inflight = useRef<AbortController | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  async function run(query: string) {
    const key = query.trim();
    if (key.length < MIN_CHARS) {
      inflight.current?.abort();
      setState({ kind: "idle" });
      return;
    }
    const hit = cache.current.get(key);
    if (hit) {
      setState({ kind: "done", q: key, results: hit });
      return;
    }
    inflight.current?.abort();
    const ctrl = new AbortController();
    inflight.current = ctrl;
    setState({ kind: "loading", q: key });
    try {
      const res = await fetch(`/v1/search?${new URLSearchParams({ q: key, limit: "10" })}`, { signal: ctrl.signal, headers: { accept: "application/json" } });
      const body = await res.json().catch(() => null);
      if (!res.ok || !body?.ok) {
        const wait = body?.retry_after ? ` Try again in about ${waitText(body.retry_after)}, or sign in and use an API key.` : "";
        setState({ kind: "error", q: key, message: `${body?.message ?? `search failed (${res.status})`}.${wait}` });
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
                    <span className={`h-${r.health}`}>health {r.health}</span> · trust {r.trust_score}/100
                    {r.verified ? " · verified" : ""}
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
