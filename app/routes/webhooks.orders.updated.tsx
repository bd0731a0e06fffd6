import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveOrderUpdated } from "../webhooks/topics.server";

export const action = ({ request }: ActionFunctionArgs) => receiveOrderUpdated(request);
