/**
 * The conversion pixel's endpoint (extensions/conversion-pixel): an order's
 * click ids and the buyer's consent at checkout, for the shop the token names.
 * Remix hands OPTIONS (the CORS preflight) to the loader.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { answerPixelSignal, PIXEL_CORS_HEADERS } from "../pages/pixel-endpoint.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  request.method === "OPTIONS"
    ? new Response(null, { status: 204, headers: PIXEL_CORS_HEADERS })
    : Response.json(
        { error: "method not allowed" },
        { status: 405, headers: { ...PIXEL_CORS_HEADERS, Allow: "POST" } },
      );

export const action = ({ request, params }: ActionFunctionArgs) =>
  answerPixelSignal(prisma, params.token ?? "", request);
