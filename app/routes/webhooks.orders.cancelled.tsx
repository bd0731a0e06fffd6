import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveOrderCancelled } from "../webhooks/topics.server";

export const action = ({ request }: ActionFunctionArgs) => receiveOrderCancelled(request);
