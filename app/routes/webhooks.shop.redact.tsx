import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveShopRedact } from "../webhooks/topics.server";

export const action = ({ request }: ActionFunctionArgs) => receiveShopRedact(request);
