import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { intakeOrderCancelled } from "../sync/order-intake.server";

export const action = ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "orders/cancelled", (tx, { shop, payload, triggeredAt }) =>
    intakeOrderCancelled(tx, shop, payload, { triggeredAt }),
  );
