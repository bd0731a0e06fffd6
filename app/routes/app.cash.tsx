/** Cash: app/pages/cash-page.server.ts reads the view, components/cash/CashPage.tsx draws it. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { cashPageData } from "../pages/cash-page.server";
import { CashPage } from "../components/cash/CashPage";
import { pageTitle } from "../i18n/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "cash.title");

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return cashPageData(request, session.shop);
});

export default CashPage;
