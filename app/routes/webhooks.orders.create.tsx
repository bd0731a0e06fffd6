import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveOrderCreated } from "../webhooks/receive.server";

export const action = ({ request }: ActionFunctionArgs) => receiveOrderCreated(request);
