/** Activity: app/pages/activity-page.server.ts reads it and runs its retries, components/activity/ActivityPage.tsx draws it. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { activityPageAction, activityPageData } from "../pages/activity-page.server";
import { ActivityPage } from "../components/activity/ActivityPage";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return activityPageData(request, session.shop);
});

export const action = withErrorReference(async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return activityPageAction(request, session.shop);
});

export default ActivityPage;
