import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveAppUninstalled } from "../webhooks/topics.server";

export const action = ({ request }: ActionFunctionArgs) => receiveAppUninstalled(request);
