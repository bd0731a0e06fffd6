/** Analytics: app/pages/analytics-page.server.ts reads the report, components/analytics/AnalyticsPage.tsx draws it. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import vizStyles from "@shopify/polaris-viz/build/esm/styles.css?url";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { analyticsPageData } from "../pages/analytics-page.server";
import { AnalyticsPage } from "../components/analytics/AnalyticsPage";
import { pageTitle } from "../i18n/page-title";

export const links = () => [{ rel: "stylesheet", href: vizStyles }];

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "analytics.title");

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return analyticsPageData(request, session.shop);
});

export default AnalyticsPage;
