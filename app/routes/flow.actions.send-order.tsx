/**
 * POST /flow/actions/send-order: Shopify Flow runs the "Send order to the COD
 * platform" action (extensions/flow-send-order). Flow signs the body with the app's
 * secret: authenticate.flow refuses a wrong or missing signature (400) and finds the
 * shop's offline session.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { flowSendOrderAnswer } from "../pages/flow-endpoint.server";
import { authenticate } from "../shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  // authenticate.flow reads the body with JSON.parse, which rounds a 64-bit order id: read it again, exactly.
  const copy = request.clone();
  const { session } = await authenticate.flow(request);
  return flowSendOrderAnswer(session.shop, await copy.text());
};
