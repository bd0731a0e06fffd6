/**
 * The logger never prints a key, a token, a session token or a phone number
 * given to it, in any field, nested at any depth, in arrays, in an error's
 * message or cause, in a child logger's bindings or in the message itself:
 * generated (fast-check, fixed seed) rather than listed, with the secret's
 * field named innocently as often as not.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLogger, routeConsoleToLogger, type Logger } from "../../app/runtime/logger.server";
import { isSecretFieldName, REDACTED, redactForLog, scrubText } from "../../app/runtime/log-redaction";

function capture(level: "debug" | "info" = "debug"): { logger: Logger; lines: () => string[]; text: () => string } {
  const chunks: string[] = [];
  const logger = createLogger({ level, destination: { write: (chunk: string) => void chunks.push(chunk) } });
  return { logger, text: () => chunks.join(""), lines: () => chunks.join("").split("\n").filter(Boolean) };
}

const alnum = fc.stringMatching(/^[A-Za-z0-9]{8,40}$/);
const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
const base64url = (n: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9_-]{${n}}$`));
const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
const separator = fc.constantFrom("", " ", "-", ".");
const spaced = (parts: string[], sep: string) => parts.join(sep);

/** Secrets in the forms they reach a log: each recognisable by its shape alone. */
const recognisable = fc.oneof(
  // The platform's API keys (the sandbox mints cod_ + 43 base64url characters).
  base64url(43).map((k) => `cod_${k}`),
  // Shopify access tokens and secrets.
  fc.tuple(fc.constantFrom("shpat", "shpca", "shpss", "shpua"), hex(32)).map(([p, h]) => `${p}_${h}`),
  // Session tokens (App Bridge's id_token): three base64url parts, a JSON header.
  fc.tuple(base64url(30), base64url(60), base64url(43)).map(([a, b, c]) => `eyJ${a}.eyJ${b}.${c}`),
  // 32 random bytes in base64 (ENCRYPTION_KEY).
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString("base64")),
  // Moroccan mobiles as customers type them.
  fc
    .tuple(fc.constantFrom("6", "7"), digits(8), separator)
    .map(([first, rest, sep]) =>
      spaced(["0" + first, rest.slice(0, 2), rest.slice(2, 4), rest.slice(4, 6), rest.slice(6)], sep),
    ),
  fc
    .tuple(fc.constantFrom("+212", "00212", "+212 ", "00212-"), fc.constantFrom("6", "7", "5"), digits(8), separator)
    .map(
      ([cc, first, rest, sep]) =>
        `${cc}${first}${sep}${rest.slice(0, 2)}${sep}${rest.slice(2, 4)}${sep}${rest.slice(4)}`,
    ),
  // Arabic-Indic digits.
  digits(8).map((rest) => "٠٦" + [...rest].map((d) => String.fromCharCode(0x660 + Number(d))).join("")),
  // Another country's number with its code.
  fc
    .tuple(fc.constantFrom("+33 6", "+34 6", "+1 415"), digits(8))
    .map(([cc, rest]) => `${cc} ${rest.slice(0, 2)} ${rest.slice(2, 4)} ${rest.slice(4, 6)} ${rest.slice(6)}`),
);

/** Field names that say what they hold: their value goes whatever it looks like. */
const secretName = fc.constantFrom(
  "apiKey",
  "sellerApiKey",
  "api_key",
  "X-Api-Key",
  "key",
  "accessToken",
  "access_token",
  "refreshToken",
  "idToken",
  "id_token",
  "sessionToken",
  "session",
  "token",
  "authorization",
  "Authorization",
  "password",
  "secret",
  "clientSecret",
  "encryptionKey",
  "ENCRYPTION_KEY",
  "hmac",
  "x-shopify-hmac-sha256",
  "signature",
  "cookie",
  "phone",
  "customer_phone",
  "customerPhone",
  "mobile",
  "tel",
  "address",
  "address1",
  "shippingAddress",
  "billing_address",
  "email",
  "eventsSecret",
);
const innocentName = fc.constantFrom(
  "detail",
  "note",
  "value",
  "info",
  "context",
  "data",
  "item",
  "reason",
  "body",
  "cause",
  "text",
  "extra",
);
const filler = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null));
/** A value the secret may hide in: alone, in a sentence, in a header, in a URL. */
const embedding = fc.constantFrom(
  (s: string) => s,
  (s: string) => `the call failed for ${s} just now`,
  (s: string) => `Bearer ${s}`,
  (s: string) => `https://shop.example/app?id_token=${s}&x=1`,
  (s: string) => `(${s})`,
);

type Path = { name: string; inArray: boolean }[];
const path: fc.Arbitrary<Path> = fc.array(fc.record({ name: innocentName, inArray: fc.boolean() }), { maxLength: 5 });

/** Nests `leaf` under `path` among filler fields. */
function nest(p: Path, leaf: Record<string, unknown>, noise: unknown[]): Record<string, unknown> {
  let value: Record<string, unknown> = { ...leaf, other: noise[0] };
  for (const [i, step] of [...p].reverse().entries()) {
    const inner: unknown = step.inArray ? [noise[i % noise.length], value] : value;
    value = { [step.name]: inner, sibling: noise[(i + 1) % noise.length] };
  }
  return value;
}

/** The secret and the forms of it that must not appear (a phone with or without its separators). */
function forbidden(secret: string): string[] {
  const compact = secret.replace(/[\s.\-()]/g, "");
  return [...new Set([secret, compact].filter((s) => s.length >= 8))];
}

const where = fc.constantFrom("field", "message", "binding", "error", "console");

describe("the logger's redaction", () => {
  it("never prints a recognisable key, token or phone, whatever the field is called or how deep it is", () => {
    fc.assert(
      fc.property(
        recognisable,
        embedding,
        path,
        innocentName,
        fc.array(filler, { minLength: 2, maxLength: 4 }),
        where,
        (secret, embed, p, name, noise, place) => {
          const { logger, text } = capture();
          const value = embed(secret);
          if (place === "field") logger.info("something happened", nest(p, { [name]: value }, noise));
          else if (place === "message") logger.warn(`could not post: ${value}`);
          else if (place === "binding") logger.child(nest(p, { [name]: value }, noise)).info("bound");
          else if (place === "error")
            logger.error("failed", {
              err: new Error("outer", { cause: new Error(`inner ${value}`) }),
              ...nest(p, {}, noise),
            });
          else {
            const original = { ...console };
            try {
              routeConsoleToLogger(logger);
              console.error(`console text ${value}`, nest(p, { [name]: value }, noise));
            } finally {
              Object.assign(console, original);
            }
          }
          const out = text();
          expect(out.length).toBeGreaterThan(0);
          for (const form of forbidden(secret)) expect(out, `${place}: ${value}`).not.toContain(form);
          expect(out).toContain(REDACTED);
        },
      ),
      { seed: 4141, numRuns: 600 },
    );
  });

  it("never prints any value under a field named for a secret or a customer's contact, nested too", () => {
    const anyValue = fc.oneof(
      fc.string({ minLength: 6, maxLength: 30 }).filter((s) => s.trim().length >= 6),
      alnum,
    );
    fc.assert(
      fc.property(
        secretName,
        anyValue,
        path,
        fc.array(filler, { minLength: 2, maxLength: 4 }),
        fc.boolean(),
        (name, value, p, noise, asBinding) => {
          const { logger, lines } = capture();
          // Unique enough not to occur in the line by chance (time, pid, other fields).
          const secret = `${value}#${name.length}`;
          if (asBinding) logger.child(nest(p, { [name]: secret }, noise)).info("bound");
          else logger.info("fields", nest(p, { [name]: secret }, noise));
          const [line] = lines();
          expect(line).not.toContain(JSON.stringify(secret).slice(1, -1));
          expect(JSON.parse(line)).toBeTypeOf("object");
        },
      ),
      { seed: 4142, numRuns: 400 },
    );
  });

  it("writes one JSON object a line with the level, time, message and fields", () => {
    const { logger, lines } = capture("info");
    logger.debug("not at info");
    logger
      .child({ role: "worker" })
      .info("job done %s", { job: "post-lead:a.myshopify.com:6180000001001", durationMs: 12 });
    const [line, ...rest] = lines();
    expect(rest).toHaveLength(0);
    expect(JSON.parse(line)).toMatchObject({
      level: "info",
      role: "worker",
      msg: "job done %s",
      job: "post-lead:a.myshopify.com:6180000001001",
      durationMs: 12,
      time: expect.any(String),
    });
  });

  it("keeps what an operator needs: order ids, amounts, dates, job keys, shops", () => {
    const kept = {
      order: "6180000001001",
      total: "149.00",
      at: "2026-11-26T10:15:00.000Z",
      job: "post-lead:atlas-beauty.myshopify.com:6180000001001",
      shop: "atlas-beauty.myshopify.com",
      keyId: "k_3f9a",
      durationMs: 41,
    };
    expect(redactForLog(kept)).toEqual(kept);
    expect(scrubText("lead ATB-100012 created in 120 ms for order #1012")).toBe(
      "lead ATB-100012 created in 120 ms for order #1012",
    );
    expect(isSecretFieldName("jobKey")).toBe(false);
    expect(isSecretFieldName("sellerApiKey")).toBe(true);
  });

  it("bounds what it walks: cycles, depth and long arrays", () => {
    const cyclic: Record<string, unknown> = { name: "a" };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { phone: "0612345678" };
    for (let i = 0; i < 30; i++) deep = { next: deep };
    const out = JSON.stringify(redactForLog({ cyclic, deep, many: Array.from({ length: 500 }, (_, i) => i) }));
    expect(out).toContain("[circular]");
    expect(out).toContain("[too deep]");
    expect(out).toContain("400 more");
    expect(out).not.toContain("0612345678");
  });
});
