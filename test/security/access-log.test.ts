/**
 * The production server's request log (stdout, one JSON line per request) must not
 * carry credentials from URLs: App Bridge's id_token, OAuth's hmac/code/state,
 * session and token parameters, or the events address's path token.
 */
import { describe, expect, it } from "vitest";
import { redactUrl } from "../../app/http/access-log";
import { hostParam } from "../helpers/preview-server";
import { useAppServer } from "./app-server";

const SHOP = "atlas-beauty.myshopify.com";

const server = useAppServer({ shops: [SHOP] });

async function logLineFor(marker: string): Promise<string> {
  // The line comes once the server has answered; a loaded machine can be slow to write it (a minute is for one never written).
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const line = server()
      .stdout()
      .split("\n")
      .find((l) => l.includes(marker));
    if (line) return line;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no log line with ${marker}:\n${server().stdout()}`);
}

describe("the request log", () => {
  it("redacts session tokens and OAuth parameters from the query string", async () => {
    const idToken = await server().mintToken(SHOP);
    const secrets = {
      hmac: "4f1c0ffee0ddba11",
      session: "sess-9d8c7b6a",
      token: "tok-5e4d3c2b",
      code: "oauth-code-77",
      state: "st-123456",
    };
    const query = new URLSearchParams({
      embedded: "1",
      shop: SHOP,
      host: hostParam(SHOP),
      id_token: idToken,
      ...secrets,
      marker: "m-query",
    });
    await fetch(`${server().url}/app?${query}`, { redirect: "manual" });
    const line = await logLineFor("m-query");
    // One JSON line per request (app/runtime/request-log.server.ts).
    expect(JSON.parse(line)).toMatchObject({ method: "GET", url: expect.stringMatching(/^\/app\?/) });
    expect(line).toContain("id_token=[redacted]");
    expect(line).toContain(`shop=${encodeURIComponent(SHOP)}`);
    for (const value of [idToken, idToken.split(".")[1], ...Object.values(secrets)])
      expect(server().stdout()).not.toContain(value);
    // Upper-case or encoded names are the same parameters.
    // (Not /healthz: health checks log at debug level.)
    await fetch(`${server().url}/app?ID_TOKEN=${idToken}&%68mac=abcdef0123456789&marker=m-case`, {
      redirect: "manual",
    });
    const cased = await logLineFor("m-case");
    expect(cased).toContain("ID_TOKEN=[redacted]");
    expect(cased).toContain("%68mac=[redacted]");
    expect(server().stdout()).not.toContain("abcdef0123456789");
  }, 180_000);

  it("redacts the events token from /webhooks/seller/<token>, in any spelling of the path", async () => {
    const tokens = [
      "Zq3xK9vL2mN8pR4tW6yB1cD5fG7hJ0kM2nP4qS6uV8x",
      "second-secret-token-aaaa",
      "third-secret-token-bbbb",
    ];
    await fetch(`${server().url}/webhooks/seller/${tokens[0]}`, { method: "POST", body: "{}" });
    await fetch(`${server().url}/WEBHOOKS/Seller/${tokens[1]}?marker=m-upper`, { method: "POST", body: "{}" });
    await fetch(`${server().url}/webhooks/seller/${tokens[2]}/?marker=m-slash`, { method: "POST", body: "{}" });
    await logLineFor("m-upper");
    await logLineFor("m-slash");
    expect(JSON.parse(await logLineFor("/webhooks/seller/[redacted]"))).toMatchObject({
      method: "POST",
      url: "/webhooks/seller/[redacted]",
      status: expect.any(Number),
    });
    for (const token of tokens) {
      expect(server().stdout()).not.toContain(token);
      expect(server().stderr()).not.toContain(token);
    }
  }, 180_000);

  it("shows no phone number from the query string, however the browser encoded it", async () => {
    const searches = ["06+12+34+56+78", "%2B212+6+12+34+56+78", "%2B212612345678"];
    for (const [i, q] of searches.entries())
      await fetch(`${server().url}/app/orders?q=${q}&marker=m-phone-${i}`, { redirect: "manual" });
    for (const i of searches.keys()) {
      const line = await logLineFor(`m-phone-${i}`);
      expect(line).toContain("q=[redacted]&");
      expect(line.replace(/\D/g, "")).not.toContain("612345678");
    }
  }, 180_000);

  it("redactUrl keeps what is not a credential, byte for byte", () => {
    expect(redactUrl("/app/orders?tab=held&after=abc&shop=a.myshopify.com")).toBe(
      "/app/orders?tab=held&after=abc&shop=a.myshopify.com",
    );
    expect(redactUrl("/auth/callback?code=1&hmac=2&host=h&shop=s&state=3&timestamp=4")).toBe(
      "/auth/callback?code=[redacted]&hmac=[redacted]&host=h&shop=s&state=[redacted]&timestamp=4",
    );
    expect(redactUrl("/webhooks/seller/abc/def")).toBe("/webhooks/seller/[redacted]/def");
    expect(redactUrl("//webhooks//seller/abc")).toBe("//webhooks//seller/[redacted]");
    expect(redactUrl("/webhooks/seller/%61bc?x=1#frag")).toBe("/webhooks/seller/[redacted]?x=1");
    expect(redactUrl("/a?id_token")).toBe("/a?id_token");
  });
});
