import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { intakeOrderUpdated } from "../sync/order-intake.server";

export const action = ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "orders/updated", (tx, { shop, payload, triggeredAt }) =>
    intakeOrderUpdated(tx, shop, payload, { triggeredAt }),
  );
