/** Orders: app/pages/orders-page.server.ts reads the page and sends in bulk, components/orders/OrdersPage.tsx draws it. */
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { boundary } from "@shopify/shopify-app-remix/server";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { ordersPageData, ordersPageAction } from "../pages/orders-page.server";
import { OrdersPage } from "../components/orders/OrdersPage";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return ordersPageData(request, session.shop);
});

export const action = withErrorReference(async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return ordersPageAction(request, session.shop);
});

export default OrdersPage;

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
