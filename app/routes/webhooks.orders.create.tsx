import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveOrderCreated } from "../webhooks/topics.server";

export const action = ({ request }: ActionFunctionArgs) => receiveOrderCreated(request);
