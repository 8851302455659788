import { ApiError } from "@/lib/api/errors";
import { checkPublicHost } from "@/lib/net";
import { FETCH_BLOCKED_PORTS } from "@/lib/net/blocked-ports";

/**
 * The creation-time half of the webhook SSRF rule (DESIGN §8, anchors C5):
 * https only, no credentials in the URL, no port fetch refuses, and a host that is not knowably
 * private now: a literal private or loopback IP, a `localhost` name, or a name
 * resolving to any non-public address is a 400. A name DNS cannot answer for
 * right now is accepted; every delivery checks again after DNS, on the
 * address it connects to. Returns the URL in normal form (no fragment).
 */
export async function checkWebhookUrl(raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError("invalid_request", "webhook_url: not an absolute URL", { reason: { code: "webhook_not_url" } });
  }
  if (url.protocol !== "https:") {
    throw new ApiError("invalid_request", "webhook_url must use https (plain http is refused)", { reason: { code: "webhook_not_https", scheme: url.protocol.replace(/:$/, "") } });
  }
  if (url.username || url.password) {
    throw new ApiError("invalid_request", "webhook_url must not carry a user name or password", { reason: { code: "webhook_credentials" } });
  }
  // fetch never connects to these (mail, IRC, …): such a watch was paid for and every delivery failed for 24 h
  if (FETCH_BLOCKED_PORTS.has(url.port)) {
    throw new ApiError(
      "invalid_request",
      `webhook_url port ${url.port} is refused: it is one of the ports HTTP clients never connect to (the Fetch standard's bad ports); use another port`,
      { reason: { code: "webhook_blocked_port", port: url.port } },
    );
  }
  const verdict = await checkPublicHost(url.hostname);
  if (!verdict.ok) {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    throw new ApiError("invalid_request", `webhook_url is refused: ${verdict.message}; webhooks are sent to public addresses only`, {
      reason: verdict.reason === "not_resolvable" ? { code: "webhook_not_resolvable", host } : { code: "webhook_private_address", host, address: verdict.address },
    });
  }
  url.hash = "";
  return url.toString();
}
