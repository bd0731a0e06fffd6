import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { redactCustomer } from "../customers/compliance.server";

// Compliance: erases the customer's personal data from stored orders and leads.
export const action = ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "customers/redact", async (tx, { shop, payload }) => {
    await redactCustomer(tx, shop, payload);
  });
