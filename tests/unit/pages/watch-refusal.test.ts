import { describe, expect, it } from "vitest";
import { ApiError, type RefusalReason } from "@/lib/api/errors";
import { watchRefusal } from "@/app/watches/watch-refusal";

// The watch form's sentence for each refusal the service gives a reason for; the API's Error body (its message,
// written for programs) is what it was, the reason never in it.
const refused = (code: ConstructorParameters<typeof ApiError>[0], message: string, reason: RefusalReason) => new ApiError(code, message, { reason });

describe("the watch form's words for the service's refusals", () => {
  it.each<[string, RefusalReason, string]>([
    ["not a URL", { code: "webhook_not_url" }, "Webhook URL must be a whole address starting with https://."],
    ["another scheme", { code: "webhook_not_https", scheme: "http" }, "Webhook URL must start with https:// (http is refused)."],
    ["credentials", { code: "webhook_credentials" }, "Webhook URL must not hold a user name or password (the part before @): take it out. Each delivery is signed with the watch's secret instead."],
    ["a bad port", { code: "webhook_blocked_port", port: "25" }, "Webhook URL port 25 is one HTTP clients never connect to (it belongs to mail, chat and the like): use another port, or none for 443."],
    ["a loopback name", { code: "webhook_private_address", host: "app.localhost" }, "Webhook URL names “app.localhost”, which is this machine itself: give a host name on the public internet."],
    ["a literal private address", { code: "webhook_private_address", host: "192.168.1.4", address: "192.168.1.4" }, "Webhook URL points at 192.168.1.4, a private or loopback address: give a host name or address on the public internet."],
    ["a name resolving to a private address", { code: "webhook_private_address", host: "hooks.corp", address: "10.0.0.7" }, "Webhook URL host “hooks.corp” resolves to 10.0.0.7, a private address: give a host that resolves to public addresses only."],
    ["no address in DNS", { code: "webhook_not_resolvable", host: "hooks.exmaple.com" }, "Webhook URL host “hooks.exmaple.com” has no address in DNS: check how it is spelled."],
    ["an unknown server", { code: "unknown_server", name: "io.github.acme/Weather" }, "We have no server named “io.github.acme/Weather”. Names are exact and case-sensitive: copy it from the server's page, such as io.github.owner/name."],
    ["the tier's watch limit", { code: "watch_limit", active: 50, limit: 50, tier: "pro", granted: false }, "This account has reached its limit of 50 active watches, the most a pro account may have. Delete one below to make room, or ask for more."],
    ["a granted watch limit", { code: "watch_limit", active: 7, limit: 7, tier: "registered", granted: true }, "This account has reached its limit of 7 active watches (a limit granted to it). Delete one below to make room, or ask for more."],
    ["a limit lowered below the watches", { code: "watch_limit", active: 5, limit: 2, tier: "registered", granted: true }, "This account has 5 active watches, over its limit of 2 (a limit granted to it). Delete one below to make room, or ask for more."],
    ["no credits", { code: "no_credits", cost: 10 }, "Your credits do not cover a new watch (10 credits). The wallet refills on the first day of the next UTC month."],
  ])("says %s in a sentence, not the API's message", (_what, reason, sentence) => {
    const err = refused("invalid_request", "webhook_url is refused: the API's own words", reason);
    expect(watchRefusal(err, {})).toBe(sentence);
    expect(err.toBody()).toEqual({ ok: false, error: "invalid_request", message: "webhook_url is refused: the API's own words" });
  });

  it("says a refusal with no reason in its message, as a sentence", () => {
    expect(watchRefusal(new ApiError("unauthorized", "watches need an account API key in x-api-key"), {})).toBe("Watches need an account API key in x-api-key.");
  });
});
