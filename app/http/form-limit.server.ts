/**
 * An action's form, read with a byte limit enforced while reading: a declared
 * Content-Length over it is refused before a byte is read, and a body that
 * goes past it is cut off there, so an oversized upload never sits in memory
 * whole nor reaches a parser.
 */

export class FormTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`form body over ${limit} bytes`);
    this.name = "FormTooLargeError";
  }
}

/** The request's form data (URL-encoded or multipart); FormTooLargeError past `maxBytes`. */
export async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && (!/^\d+$/.test(declared.trim()) || Number(declared) > maxBytes))
    throw new FormTooLargeError(maxBytes);
  if (!request.body) return request.formData();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new FormTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  const headers = new Headers(request.headers);
  headers.delete("Content-Length");
  return new Request(request.url, { method: request.method, headers, body }).formData();
}
