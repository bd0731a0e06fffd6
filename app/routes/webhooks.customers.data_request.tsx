import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveCustomerDataRequest } from "../webhooks/topics.server";

export const action = ({ request }: ActionFunctionArgs) => receiveCustomerDataRequest(request);
