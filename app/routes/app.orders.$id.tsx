/** One order: app/pages/order-page.server.ts reads it and runs its actions, components/orders/OrderPage.tsx draws it. */
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { orderPageData, orderPageAction } from "../pages/order-page.server";
import { OrderNotFound, OrderPage } from "../components/orders/OrderPage";
import { ErrorPage, isShopifyResponse } from "../components/ErrorPage";
import { pageTitle } from "../i18n/page-title";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  data ? pageTitle(matches, "order.title", { name: data.order.orderName }) : pageTitle(matches, "orders.title");

export const loader = withErrorReference(async ({ request, params }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  return orderPageData(session.shop, admin, params.id ?? "");
});

export const action = withErrorReference(async ({ request, params }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  return orderPageAction(request, session.shop, admin, params.id ?? "");
});

export default OrderPage;

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <OrderNotFound />;
  // Shopify's own thrown responses keep their headers; anything else is a page with a reference.
  if (isShopifyResponse(error)) return boundary.error(error);
  return <ErrorPage error={error} />;
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
