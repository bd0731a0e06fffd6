import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { ordersToRedact, redactCustomer } from "../customers/compliance.server";
import { eraseCustomerFeedData } from "../ad-feed/clicks.server";

// Compliance: erases the customer's personal data from stored orders and leads, and the conversion feed's click ids.
export const action = ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "customers/redact", async (tx, { shop, payload }) => {
    await eraseCustomerFeedData(tx, shop, await ordersToRedact(tx, shop, payload));
    await redactCustomer(tx, shop, payload);
  });
