/**
 * A file the browser saves (the CSV and JSON exports): its type, the name it is saved under,
 * and never kept by a cache, since it holds the shop's data.
 */
const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
} as const;

export function fileResponse(body: string, type: keyof typeof CONTENT_TYPES, fileName: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": CONTENT_TYPES[type],
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
