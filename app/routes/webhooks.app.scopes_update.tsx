import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { updateGrantedScopes } from "../sync/shop-lifecycle.server";

export const action = ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "app/scopes_update", async (tx, { shop, payload }) => {
    const current = Array.isArray(payload.current) ? payload.current.map(String) : [];
    await updateGrantedScopes(tx, shop, current);
  });
