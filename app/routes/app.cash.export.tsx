/**
 * CSV of the cash ledger: a cash list view (?state=&minAge=&maxAge=) or an Analytics period (?period= or ?from=&to=),
 * in the reader's spreadsheet dialect (?locale=, as the page's; csv.ts).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import { CashExportRefused, cashCsvExport } from "../pages/cash.server";
import { csvDialect } from "../analytics/csv";
import { localeFromRequest } from "../i18n";
import { env } from "../env.server";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  try {
    const { csv, fileName } = await cashCsvExport(prisma, session.shop, new URL(request.url).searchParams, {
      dialect: csvDialect(localeFromRequest(request, { pseudo: env.PSEUDO_LOCALES })),
    });
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${fileName}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    if (error instanceof CashExportRefused) throw new Response(error.message, { status: 400 });
    throw error;
  }
});
