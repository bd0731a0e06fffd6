import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { receiveWebhookWrites } from "../webhooks/receive.server";
import { orderCreatedWrites } from "../webhooks/order-intake.server";

export const action = ({ request }: ActionFunctionArgs) =>
  receiveWebhookWrites(request, (webhook, delivery) => orderCreatedWrites(prisma, delivery, webhook.payload));
