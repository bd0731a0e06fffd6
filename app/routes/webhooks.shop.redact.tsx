import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { eraseShop } from "../sync/shop-lifecycle.server";

export const action = ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "shop/redact", (tx, { shop }) => eraseShop(tx, shop));
