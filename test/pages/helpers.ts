/**
 * Admin pages under test: the app's modules on a fresh database, offline
 * sessions stored for the shops, Shopify's own network refused (authenticate.admin
 * must not need it), and loaders / actions called with minted session tokens.
 */
import { vi } from "vitest";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useTestDatabaseForApp } from "../helpers/app";
import { adminRequest, storeOfflineSession } from "../helpers/admin";
import type { TestDatabase } from "../helpers/db";

export const SHOP_A = "atlas-beauty.myshopify.com";
export const SHOP_B = "rif-market.myshopify.com";

export interface AdminApp {
  db: TestDatabase;
  /** URLs Shopify's library tried to reach (must stay empty). */
  shopifyCalls: string[];
}

/** Call before importing any app module. env: variables the app reads at import (e.g. SELLER_API_BASE_URL). */
export async function startAdminApp(env: Record<string, string> = {}, shops = [SHOP_A, SHOP_B]): Promise<AdminApp> {
  Object.assign(process.env, env);
  const db = await useTestDatabaseForApp();
  const shopifyCalls: string[] = [];
  const { setAbstractFetchFunc } = await import("@shopify/shopify-api/runtime");
  const { sessionStorage } = await import("../../app/shopify.server");
  setAbstractFetchFunc((async (input: RequestInfo | URL) => {
    shopifyCalls.push(String(input instanceof Request ? input.url : input));
    throw new Error("Shopify is not reachable in this test");
  }) as typeof fetch);
  for (const shop of shops) await storeOfflineSession(sessionStorage, shop);
  return { db, shopifyCalls };
}

export async function stopAdminApp(app: AdminApp | undefined): Promise<void> {
  vi.unstubAllGlobals();
  await app?.db.cleanup();
}

type Loader = (args: LoaderFunctionArgs) => Promise<unknown>;
type Action = (args: ActionFunctionArgs) => Promise<unknown>;

/** A document load of path (id_token in the URL), as the admin's iframe makes it. */
export async function load<L extends Loader>(loader: L, shop: string, path: string): Promise<Awaited<ReturnType<L>>> {
  const request = await adminRequest(shop, path);
  return (await loader({ request, params: {}, context: {} })) as Awaited<ReturnType<L>>;
}

/** A form POST from the embedded page (Bearer session token), as fetcher.submit sends it. */
export async function submit<A extends Action>(
  action: A,
  shop: string,
  path: string,
  fields: Record<string, string>,
): Promise<Awaited<ReturnType<A>>> {
  const request = await adminRequest(shop, path, { as: "fetch", method: "POST", body: new URLSearchParams(fields) });
  return (await action({ request, params: {}, context: {} })) as Awaited<ReturnType<A>>;
}
