/** Home: app/pages/home-page.server.ts reads it, components/home/HomePage.tsx draws it. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { homePageData } from "../pages/home-page.server";
import { HomePage } from "../components/home/HomePage";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return homePageData(session.shop);
});

export default HomePage;
