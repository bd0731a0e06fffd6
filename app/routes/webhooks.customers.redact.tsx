import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveCustomerRedact } from "../webhooks/topics.server";

export const action = ({ request }: ActionFunctionArgs) => receiveCustomerRedact(request);
