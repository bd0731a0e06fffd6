/**
 * The conversion pixel's endpoint (extensions/conversion-pixel): an order's
 * click ids and the buyer's consent at checkout, for the shop the token names.
 * Remix hands OPTIONS (the CORS preflight) to the loader.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { answerPixelPreflight, answerPixelSignal } from "../pages/pixel-endpoint.server";

export const loader = ({ request }: LoaderFunctionArgs) => answerPixelPreflight(request);

export const action = ({ request, params }: ActionFunctionArgs) => answerPixelSignal(params.token ?? "", request);
