import { describe, expect, it } from "vitest";
import { HttpResponseError } from "@shopify/shopify-api";
import { ADMIN_CLIENT_KEPT_MS, cachedAdminFor, type LoadedAdmin } from "../../app/shopify/admin-client-cache";
import type { AdminGraphqlClient } from "../../app/shopify/admin-graphql.server";

const SHOP = "atlas-beauty.myshopify.com";

/** A loader that counts loads and gives clients answering with `answer`. */
function loader(answer: () => Promise<Response>, expires: () => Date | null = () => null) {
  const loads: string[] = [];
  const load = async (shop: string): Promise<LoadedAdmin> => {
    loads.push(shop);
    return {
      admin: { graphql: (async () => answer()) as unknown as AdminGraphqlClient["graphql"] },
      expires: expires(),
    };
  };
  return { loads, load };
}

describe("the worker's Admin clients, kept a minute per shop", () => {
  it("loads a shop's session once a minute however many calls it makes", async () => {
    let now = 0;
    const { loads, load } = loader(async () => new Response("{}"));
    const adminFor = cachedAdminFor(load, () => now);
    for (let i = 0; i < 50; i++) await (await adminFor(SHOP)).graphql("query { shop { id } }");
    await adminFor("other.myshopify.com");
    expect(loads).toEqual([SHOP, "other.myshopify.com"]);
    now = ADMIN_CLIENT_KEPT_MS + 1;
    await adminFor(SHOP);
    expect(loads).toEqual([SHOP, "other.myshopify.com", SHOP]);
  });

  it("drops the client when Shopify answers 401 (token revoked), and loads the session again", async () => {
    let unauthorized = true;
    const { loads, load } = loader(async () => {
      if (unauthorized) throw new HttpResponseError({ message: "Unauthorized", code: 401, statusText: "Unauthorized" });
      return new Response("{}");
    });
    const adminFor = cachedAdminFor(load, () => 0);
    const error = await (await adminFor(SHOP)).graphql("query { shop { id } }").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpResponseError);
    unauthorized = false;
    await (await adminFor(SHOP)).graphql("query { shop { id } }");
    expect(loads).toEqual([SHOP, SHOP]);
  });

  it("keeps other failures' client, and never keeps a session about to expire", async () => {
    const { loads, load } = loader(
      async () => {
        throw new HttpResponseError({ message: "Internal", code: 500, statusText: "Internal Server Error" });
      },
      () => new Date(30_000),
    );
    const adminFor = cachedAdminFor(load, () => 0);
    await (await adminFor(SHOP)).graphql("query { shop { id } }").catch(() => undefined);
    await adminFor(SHOP);
    // Expiring in 30 s: inside the margin, so loaded (and refreshed) each time.
    expect(loads).toEqual([SHOP, SHOP]);

    const steady = loader(async () => {
      throw new HttpResponseError({ message: "Internal", code: 500, statusText: "Internal Server Error" });
    });
    const keep = cachedAdminFor(steady.load, () => 0);
    await (await keep(SHOP)).graphql("query { shop { id } }").catch(() => undefined);
    await keep(SHOP);
    expect(steady.loads).toEqual([SHOP]);
  });
});
