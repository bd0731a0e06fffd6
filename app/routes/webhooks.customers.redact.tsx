import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";

// Compliance: recorded once. No stored order holds customer data yet; the order
// pipeline extends this handler to erase it from snapshots and payloads.
export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, async () => {});
