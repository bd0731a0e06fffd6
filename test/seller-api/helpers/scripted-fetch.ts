/**
 * A fetch that answers from a script, one step per request, and records what it was
 * asked. Steps: an answer `{ status, body?, headers? }`, a thrown network error, or a
 * hang that only ends when the request is aborted.
 */
export type Step =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { throws: unknown }
  | { hang: true }
  | ((request: RecordedRequest) => Step);

export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface ScriptedFetch {
  fetch: typeof globalThis.fetch;
  requests: RecordedRequest[];
}

/** A JSON answer with the sandbox's version header unless told otherwise. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Step {
  return { status, body, headers: { "X-Api-Version": "1.3", ...headers } };
}

/** What undici throws when a socket error ends a request. */
export function networkError(code: string): Error {
  return new TypeError("fetch failed", { cause: Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code }) });
}

export function scriptedFetch(steps: Step[]): ScriptedFetch {
  const requests: RecordedRequest[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = String(input);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const request: RecordedRequest = {
      method: init.method ?? "GET",
      url,
      path: new URL(url).pathname + new URL(url).search,
      headers,
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    let step = steps.shift();
    if (step === undefined) throw new Error(`scripted fetch: no step left for ${request.method} ${request.path}`);
    while (typeof step === "function") step = step(request);
    if ("throws" in step) throw step.throws;
    if ("hang" in step) {
      return new Promise<Response>((_, reject) => {
        init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    }
    const text = step.body === undefined ? "" : typeof step.body === "string" ? step.body : JSON.stringify(step.body);
    return new Response(text === "" ? null : text, { status: step.status, headers: step.headers });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}
