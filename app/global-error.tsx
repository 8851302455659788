"use client";

/** When even the layout failed: a bare page with its own html and body. */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "1rem" }}>
        <main>
          <h1>Something went wrong</h1>
          <p>mcp-preflight could not show this page.{error.digest ? ` Reference ${error.digest}.` : ""}</p>
          <button type="button" onClick={reset}>
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
