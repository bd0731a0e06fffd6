import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { receiveSellerEvent } from "../webhooks/seller-events.server";

// Platform events (lead status changes), signed with the shop's events secret.
export const action = ({ request, params }: ActionFunctionArgs) =>
  receiveSellerEvent(prisma, params.token ?? "", request);
