/**
 * The Cash page's loader work and its CSV, as their routes call them once they have
 * authenticated: the view the URL asks for, and the file of a view or of an Analytics period
 * in the reader's spreadsheet dialect (a view the page would refuse with a banner is a 400).
 */
import prisma from "../db.server";
import { CashExportRefused, cashCsvExport, loadCashPage } from "./cash.server";
import { requestCsvDialect } from "./request-locale.server";
import { fileResponse } from "./file-response";

export function cashPageData(request: Request, shop: string) {
  return loadCashPage(prisma, shop, new URL(request.url).searchParams);
}

export async function cashExportFile(request: Request, shop: string): Promise<Response> {
  try {
    const { csv, fileName } = await cashCsvExport(prisma, shop, new URL(request.url).searchParams, {
      dialect: requestCsvDialect(request),
    });
    return fileResponse(csv, "csv", fileName);
  } catch (error) {
    if (error instanceof CashExportRefused) throw new Response(error.message, { status: 400 });
    throw error;
  }
}
