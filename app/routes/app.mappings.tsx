/** Mappings: app/pages/mappings-page.server.ts reads and changes them, components/mappings/MappingsPage.tsx draws them. */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { mappingsPageAction, mappingsPageData } from "../pages/mappings-page.server";
import { MappingsPage } from "../components/mappings/MappingsPage";
import { pageTitle } from "../i18n/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "mappings.title");

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  return mappingsPageData(request, session.shop, admin);
});

export const action = withErrorReference(async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return mappingsPageAction(request, session.shop);
});

export default MappingsPage;
