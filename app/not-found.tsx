import { headers } from "next/headers";
import { MISSING_SERVER_HEADER } from "./servers/missing-server";
import ServerNotFound from "./servers/not-found";

export default async function NotFound() {
  // an unknown /servers/<name>, rewritten here by middleware.ts so that its 404 text is in the HTML
  if ((await headers()).get(MISSING_SERVER_HEADER)) return <ServerNotFound />;
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is no page here. <a href="/">Search the catalog</a> for a server by name.
      </p>
    </>
  );
}
