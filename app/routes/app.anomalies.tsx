/** Anomalies: app/pages/anomalies-page.server.ts reads the groups and runs the fixes, components/orders/AnomaliesPage.tsx draws them. */
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { boundary } from "@shopify/shopify-app-remix/server";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { anomaliesPageAction, anomaliesPageData } from "../pages/anomalies-page.server";
import { AnomaliesPage } from "../components/orders/AnomaliesPage";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return anomaliesPageData(request, session.shop);
});

export const action = withErrorReference(async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  return anomaliesPageAction(request, session.shop, admin);
});

export default AnomaliesPage;

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
