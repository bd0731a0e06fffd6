/** JSON download of one customers/data_request: what the app holds about the customer, to send them. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import { dataRequestExport } from "../customers/compliance.server";

export const loader = withErrorReference(async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const exported = await dataRequestExport(prisma, session.shop, params.id ?? "");
  if (!exported) throw new Response("Not found", { status: 404 });
  const day = exported.request.receivedAt.slice(0, 10);
  return new Response(JSON.stringify(exported, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="data-request-${day}-${exported.request.id}.json"`,
      "Cache-Control": "no-store",
    },
  });
});
