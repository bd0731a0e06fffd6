/**
 * Reads a platform answer with a size cap: the body is counted chunk by chunk
 * and the read stops (the connection is dropped) past the cap, so a hostile or
 * broken server cannot make the app buffer hundreds of megabytes. The caller's
 * abort signal (its timeout) also cancels a body that trickles in slowly.
 */

/** A page of 100 leads is about 100 KB; 5 MB is fifty times that. */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

/** The answer was longer than the cap. `code` lets classifyNetworkError name it. */
export class ResponseTooLargeError extends Error {
  readonly code = "response_too_large";
  constructor(readonly limit: number) {
    super(`the answer is longer than ${limit} bytes`);
    this.name = "ResponseTooLargeError";
  }
}

export async function readCappedText(res: Response, limit: number, signal: AbortSignal): Promise<string> {
  const declared = res.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    await res.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(limit);
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const onAbort = () => void reader.cancel(signal.reason).catch(() => undefined);
  if (signal.aborted) onAbort();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (signal.aborted) throw Object.assign(new Error("aborted"), { name: "AbortError" });
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw new ResponseTooLargeError(limit);
      }
      chunks.push(value);
    }
    return new TextDecoder().decode(Buffer.concat(chunks, total));
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
