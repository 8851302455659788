"use client";

import { useState } from "react";

/** Copies `text` to the clipboard and says so to screen readers too. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  }
  return (
    <>
      <button type="button" onClick={copy}>
        {label}
      </button>{" "}
      <span role="status" aria-live="polite" data-testid="copy-status">
        {state === "copied" ? "Copied." : state === "failed" ? "Could not copy; select the text and copy it." : ""}
      </span>
    </>
  );
}
