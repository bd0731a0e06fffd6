/** Plain HTTP calls to the stand-in, as Shopify's client would send them (shop in the rewrite's header). */
import { SHOP_HEADER } from "../../shopify-admin/index";

export interface GraphqlAnswer {
  status: number;
  headers: Headers;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; locations?: unknown; extensions?: Record<string, unknown> }[] | string;
    extensions?: {
      cost: {
        requestedQueryCost: number;
        actualQueryCost: number | null;
        throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
      };
    };
  };
}

export async function graphql(
  url: string,
  shop: string,
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = "shpat_test",
): Promise<GraphqlAnswer> {
  const headers: Record<string, string> = { "content-type": "application/json", [SHOP_HEADER]: shop };
  if (token) headers["x-shopify-access-token"] = token;
  const response = await fetch(`${url}/admin/api/2026-07/graphql.json`, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphqlAnswer["body"] };
}

export const errorsOf = (answer: GraphqlAnswer) => (Array.isArray(answer.body.errors) ? answer.body.errors : []);
