/** Backfill: app/pages/backfill-page.server.ts reads and starts the import, components/backfill/BackfillPage.tsx draws it. */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { backfillPageAction, backfillPageData } from "../pages/backfill-page.server";
import { BackfillPage } from "../components/backfill/BackfillPage";
import { pageTitle } from "../i18n/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "backfill.title");

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return backfillPageData(session.shop);
});

export const action = withErrorReference(async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return backfillPageAction(request, session.shop);
});

export default BackfillPage;
