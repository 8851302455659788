// GET /v1 itself (the catch-all below needs a segment): the contract's Error body, not the HTML 404 page.
export { GET, POST, PUT, PATCH, DELETE, OPTIONS } from "./[...path]/route";

export const dynamic = "force-dynamic";
