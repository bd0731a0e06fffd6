/**
 * The Shopify Admin stand-in behind the client shape the app's Admin calls take
 * (`admin.graphql`), for code that runs the app's modules outside its processes:
 * the demo switching its shop's conversion feed on, the tests. The call goes
 * straight to the stand-in's GraphQL endpoint, the shop in the header its fetch
 * rewrite sets, with the shop's access token; an HTTP error is thrown as the
 * Response, as the Remix package's `admin.graphql` throws it.
 */
import type { AdminGraphqlClient } from "../../../app/shopify/admin-graphql.server";
import { SHOP_HEADER } from "../../../shopify-admin/index";

export function standInAdmin(url: string, shop: string, accessToken = "shpat_test"): AdminGraphqlClient {
  return {
    graphql: (async (document: string, options?: { variables?: Record<string, unknown>; signal?: AbortSignal }) => {
      const response = await fetch(`${url}/admin/api/2026-07/graphql.json`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [SHOP_HEADER]: shop,
          "x-shopify-access-token": accessToken,
        },
        body: JSON.stringify({ query: document, variables: options?.variables ?? {} }),
        signal: options?.signal,
      });
      if (!response.ok) throw response;
      return response;
    }) as unknown as AdminGraphqlClient["graphql"],
  };
}
