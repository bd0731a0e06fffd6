/**
 * A loader or action failing unexpectedly: the page gets a 500 carrying only a short
 * reference, and the server log holds the error under that reference; thrown Responses
 * (Shopify's redirects, 404s) pass unchanged.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withErrorReference } from "../../app/http/error-reference.server";
import { errorFailureOf, errorReferenceOf } from "../../app/http/error-reference";

const request = new Request("https://app.test/app/orders/abc?id_token=SECRET-TOKEN&shop=a.myshopify.com", {
  method: "GET",
});

describe("withErrorReference", () => {
  it("answers a 500 with a reference, and logs the error with the same reference and no query string", async () => {
    const lines: [string, unknown][] = [];
    const failing = withErrorReference(
      async () => {
        throw new Error("customer 0612345678 broke it");
      },
      (line, error) => lines.push([line, error]),
    );

    const thrown = await failing({ request }).catch((e: unknown) => e);

    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.status).toBe(500);
    const body = (await response.json()) as { errorReference: string; failed: string };
    expect(Object.keys(body)).toEqual(["errorReference", "failed"]);
    // A GET only read: the page says nothing was changed.
    expect(errorFailureOf({ status: 500, data: body })).toBe("load");
    expect(body.errorReference).toMatch(/^[0-9a-f]{8}$/);
    expect(JSON.stringify(body)).not.toContain("0612345678");
    expect(lines).toHaveLength(1);
    expect(lines[0][0]).toBe(`[error ${body.errorReference}] GET /app/orders/abc failed:`);
    expect(lines[0][0]).not.toContain("SECRET-TOKEN");
    expect((lines[0][1] as Error).message).toContain("0612345678");
    // What the route's ErrorBoundary reads back.
    expect(errorReferenceOf({ status: 500, data: body })).toBe(body.errorReference);
  });

  it("says a failed action was a save, so the page does not claim nothing was lost", async () => {
    const failing = withErrorReference(
      async () => Promise.reject(new Error("x")),
      () => {},
    );
    const post = new Request("https://app.test/app/settings", {
      method: "POST",
      body: new URLSearchParams({ intent: "save" }),
    });
    const body = await ((await failing({ request: post }).catch((e: Response) => e)) as Response).json();
    expect(body.failed).toBe("save");
    expect(errorFailureOf({ status: 500, data: body })).toBe("save");
    expect(errorFailureOf(new Error("render"))).toBe("load");
  });

  it("gives each failure its own reference", async () => {
    const failing = withErrorReference(
      async () => Promise.reject(new Error("x")),
      () => {},
    );
    const references = await Promise.all(
      Array.from(
        { length: 20 },
        async () =>
          ((await (await failing({ request }).catch((e: Response) => e)).json()) as { errorReference: string })
            .errorReference,
      ),
    );
    expect(new Set(references).size).toBe(20);
  });

  it("lets thrown Responses and answers through unchanged", async () => {
    const redirect = new Response(null, { status: 302, headers: { Location: "/auth/session-token" } });
    const lines: unknown[] = [];
    await expect(
      withErrorReference(
        async () => Promise.reject(redirect),
        (l) => lines.push(l),
      )({ request }),
    ).rejects.toBe(redirect);
    await expect(withErrorReference(async () => ({ ok: true }))({ request })).resolves.toEqual({ ok: true });
    expect(lines).toEqual([]);
  });

  it("reads no reference from other errors", () => {
    expect(errorReferenceOf(new Error("Unexpected Server Error"))).toBeNull();
    expect(errorReferenceOf({ status: 404, data: "Not found" })).toBeNull();
    expect(errorReferenceOf({ status: 500, data: { errorReference: "<script>" } })).toBeNull();
  });
});

describe("admin routes", () => {
  const routesDir = join(import.meta.dirname, "..", "..", "app", "routes");
  const adminRoutes = readdirSync(routesDir).filter((f) => f.startsWith("app.") || f === "app._index.tsx");

  it("wrap every loader and action, so a failing page logs a reference the merchant can quote", () => {
    const unwrapped: string[] = [];
    for (const file of adminRoutes) {
      const source = readFileSync(join(routesDir, file), "utf8");
      for (const [, name, rest] of source.matchAll(/^export (?:const|async function) (loader|action)\b(.*)$/gm)) {
        if (!rest.startsWith(" = withErrorReference(")) unwrapped.push(`${file} ${name}`);
      }
    }
    expect(adminRoutes.length).toBeGreaterThan(10);
    expect(unwrapped).toEqual([]);
  });
});
