import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";

// Compliance: the request is recorded (delivery row). The app holds no customer
// data until the order pipeline stores orders; that issue extends this handler.
export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, async () => {});
