import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { recordDataRequest } from "../customers/compliance.server";

// Compliance: records which of the customer's personal fields the app holds, per order.
export const action = ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "customers/data_request", (tx, { shop, payload }) => recordDataRequest(tx, shop, payload));
