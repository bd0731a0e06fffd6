import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveScopesUpdate } from "../webhooks/topics.server";

export const action = ({ request }: ActionFunctionArgs) => receiveScopesUpdate(request);
