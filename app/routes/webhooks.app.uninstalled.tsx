import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { markShopUninstalled } from "../sync/shop-lifecycle.server";

export const action = ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "app/uninstalled", (tx, { shop, triggeredAt }) =>
    markShopUninstalled(tx, shop, new Date(), triggeredAt),
  );
