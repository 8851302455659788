import { describe, expect, it } from "vitest";
import { mailFailure } from "@/lib/watches/send-watch-email";

describe("what a watch's owner reads of a failed e-mail", () => {
  it("names the kind of failure or the mail server's reply, never the operator's mail server address", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:587"), { code: "ESOCKET" });
    expect(mailFailure(refused)).toBe("the mail server could not be reached (ECONNREFUSED)");
    const reply = Object.assign(new Error("Can't send mail - all recipients were rejected: 550 5.1.1 no such user"), {
      code: "EENVELOPE",
      responseCode: 550,
      response: "550 5.1.1 no such user",
    });
    expect(mailFailure(reply)).toBe("the mail server refused the message: 550 5.1.1 no such user");
    expect(mailFailure(new Error("timeout: the mail server did not accept the message within 30000 ms"))).toBe(
      "timeout: the mail server did not accept the message within 30000 ms",
    );
    expect(mailFailure(new Error("getaddrinfo ENOTFOUND smtp.internal.corp"))).toBe("the mail server could not be reached (ENOTFOUND)");
    expect(mailFailure("odd")).toBe("the mail server could not be reached");
  });
});
