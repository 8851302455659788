"use client";

import { useEffect } from "react";

/** Any page that failed to render: say so plainly, offer a retry; the digest matches the server log line. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div role="alert">
      <h1>Something went wrong</h1>
      <p>This page could not be shown. The catalog or its database may be briefly unavailable.</p>
      {error.digest && (
        <p className="small muted">
          Reference <code>{error.digest}</code> (quote it when reporting the problem).
        </p>
      )}
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>{" "}
        <a href="/">Back to search</a>
      </p>
    </div>
  );
}
