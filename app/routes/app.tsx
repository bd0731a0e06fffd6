/** The admin's layout: app/pages/frame-page.server.ts reads what the frame needs, components/AppFrame.tsx draws it. */
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import adminStyles from "../components/admin.css?url";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { framePageData } from "../pages/frame-page.server";
import { AppErrorBoundary, AppLayout, appTitle } from "../components/AppFrame";

export { NAV } from "../components/AppFrame";

export const links = () => [
  { rel: "stylesheet", href: polarisStyles },
  { rel: "stylesheet", href: adminStyles },
];

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return framePageData(request, session.shop);
});

export const meta: MetaFunction<typeof loader> = ({ data, error }) => [
  { title: appTitle(data?.locale ?? "en", error) },
];

// Shopify puts `locale` only on the iframe's first URL; links inside the app drop
// it. Keep the language of the first load unless a URL names another one.
export const shouldRevalidate: ShouldRevalidateFunction = ({ nextUrl, currentUrl, defaultShouldRevalidate }) => {
  const next = nextUrl.searchParams.get("locale");
  return next !== null && next !== currentUrl.searchParams.get("locale") ? defaultShouldRevalidate : false;
};

export default AppLayout;

export const ErrorBoundary = AppErrorBoundary;

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
