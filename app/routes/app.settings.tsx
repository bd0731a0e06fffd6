/** Settings: app/pages/settings-page.server.ts reads and saves them, components/settings/SettingsPage.tsx draws them. */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { settingsPageAction, settingsPageData } from "../pages/settings-page.server";
import { SettingsPage } from "../components/settings/SettingsPage";
import { pageTitle } from "../i18n/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "settings.title");

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return settingsPageData(session.shop);
});

export const action = withErrorReference(async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  return settingsPageAction(request, session.shop, admin);
});

export default SettingsPage;
