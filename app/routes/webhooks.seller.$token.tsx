import type { ActionFunctionArgs } from "@remix-run/node";
import { receivePlatformEvent } from "../webhooks/topics.server";

export const action = ({ request, params }: ActionFunctionArgs) => receivePlatformEvent(params.token ?? "", request);
