/** readCappedText on its own: the declared length, the counted length, an empty body, an abort. */
import { describe, expect, it } from "vitest";
import { readCappedText, ResponseTooLargeError } from "../../app/seller-api/read-capped";

const pulled: string[] = [];
/** A body that records each chunk handed out, so a test can tell it was never read. */
function body(chunks: string[]): ReadableStream<Uint8Array> {
  const queue = [...chunks];
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next === undefined) return controller.close();
      pulled.push(next);
      controller.enqueue(new TextEncoder().encode(next));
    },
  });
}
const response = (chunks: string[], headers: Record<string, string> = {}) => new Response(body(chunks), { headers });
const signal = () => new AbortController().signal;

describe("readCappedText", () => {
  it("refuses a declared length over the cap before reading a byte", async () => {
    pulled.length = 0;
    const error = await readCappedText(response(["x"], { "content-length": "11" }), 10, signal()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({
      name: "ResponseTooLargeError",
      message: "the answer is longer than 10 bytes",
      limit: 10,
      code: "response_too_large",
    });
    expect(pulled).toEqual([]);
  });

  it.each([["10"], ["1x"], ["x1"], ["-1"], ["1e3"], ["0x20"]])(
    "reads the body when the declared length is %j (at the cap, or not a length)",
    async (declared) => {
      await expect(readCappedText(response(["abc", "de"], { "content-length": declared }), 10, signal())).resolves.toBe(
        "abcde",
      );
    },
  );

  it("counts the bytes read and stops past the cap", async () => {
    await expect(readCappedText(response(["12345", "67890"]), 10, signal())).resolves.toBe("1234567890");
    await expect(readCappedText(response(["12345", "678901"]), 10, signal())).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
  });

  it("reads an answer without a body as empty", async () => {
    await expect(readCappedText(new Response(null), 10, signal())).resolves.toBe("");
  });

  it("fails at once on a signal already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(readCappedText(response(["abc"]), 10, controller.signal)).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("stops a body that trickles in when the signal aborts", async () => {
    const controller = new AbortController();
    const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode("a")) });
    const reading = readCappedText(new Response(stalled), 10, controller.signal);
    setTimeout(() => controller.abort(), 10);
    await expect(reading).rejects.toMatchObject({ name: "AbortError" });
  });
});
