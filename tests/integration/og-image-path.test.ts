import { beforeAll, describe, expect, it } from "vitest";
import * as React from "react";
import { GET as ogGet } from "@/app/og/[...name]/route";
import { resetDb } from "../helpers/db";
import { request } from "../helpers/catalog-fixture";
import { PAGE_SERVERS, seedPageFixture } from "../helpers/page-fixture";

// vitest compiles the route's JSX to React.createElement (Next's build uses the automatic runtime)
(globalThis as { React?: typeof React }).React = React;

// The Open Graph image is documented, and linked from every server page's og:image, as /og/<name>.png
// (docs/web-pages.md); the route drew the same image for /og/<name> too, a second address of one image.
beforeAll(async () => {
  await seedPageFixture(await resetDb());
});

const og = (path: string) => ogGet(request(path), { params: Promise.resolve({ name: path.split("/").slice(2) }) });

describe("GET /og/<name>.png", () => {
  it("draws the image at the documented path", async () => {
    const res = await og(`/og/${PAGE_SERVERS.pass}.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
  });

  it.each([
    ["without .png", `/og/${PAGE_SERVERS.pass}`],
    ["with another extension", `/og/${PAGE_SERVERS.pass}.svg`],
    ["with .png upper-case", `/og/${PAGE_SERVERS.pass}.PNG`],
  ])("answers a path %s with 404, as a name not in the catalog", async (_what, path) => {
    const res = await og(path);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("not in catalog\n");
  });
});
