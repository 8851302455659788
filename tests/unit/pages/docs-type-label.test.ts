import { describe, expect, it } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { buildOpenApiDocument } from "@/lib/openapi/build-openapi-document";

// the page's JSX is compiled with the classic runtime here (vitest, not Next.js): it needs React in scope
Object.assign(globalThis, { React });
const { typeLabel } = await import("@/app/docs/schema-view");

const text = (s: Record<string, unknown>) => renderToStaticMarkup(React.createElement(React.Fragment, null, typeLabel(s))).replace(/<[^>]+>/g, "");

describe("/docs type labels", () => {
  it("show a query integer's real bounds (limit 1–50), not JSON Schema's safe-integer range", () => {
    const search = (buildOpenApiDocument("http://localhost") as any).paths["/v1/search"].get;
    const limit = search.parameters.find((p: { name: string }) => p.name === "limit");
    const label = text(limit.schema);
    expect(label).not.toContain("9007199254740991");
    expect(label).toContain("1–50");
  });
});
