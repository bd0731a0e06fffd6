/**
 * Payload files as the replay and the demo send them: each payload's bytes as
 * written in its file (a plain payload, an array of them, a demo case), read
 * for display with its big ids exact; the demo's date stamp changes the dates
 * and no other byte.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { readOrderFiles } from "../../scripts/dev/lib/order-files";
import { bodyWithSendingTime } from "../../scripts/dev/demo/fresh-dates";

const dir = mkdtempSync(join(tmpdir(), "cod-order-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PLAIN = `{ "id": 820982911946154508, "name": "#1001",\n  "total_price": "199.00", "note": "a \\"quoted\\" word, [not] {json}" }`;
const IN_ARRAY = [`{"id":820982911946154509,"name":"#1002"}`, `{ "id" : 42 , "name" : "#1003" }`];
const CASE_PAYLOAD = `{\n    "id": 820982911946154510,\n    "created_at": "2026-11-20T09:07:00.000Z",\n    "name": "#1004"\n  }`;

it("GIVEN a plain payload, an array and a demo case WHEN read THEN each body is the payload's text in its file and the view keeps ids beyond 2^53 exact", () => {
  writeFileSync(join(dir, "1.json"), `${PLAIN}\n`);
  writeFileSync(join(dir, "2.json"), `[\n  ${IN_ARRAY.join(",\n  ")}\n]`);
  writeFileSync(
    join(dir, "3.json"),
    `{\n  "title": "a case",\n  "expect": { "state": "created" },\n  "payload": ${CASE_PAYLOAD}\n}`,
  );

  const deliveries = readOrderFiles(dir);

  expect(deliveries.map((d) => [d.source, d.body])).toEqual([
    ["1.json", PLAIN],
    ["2.json[0]", IN_ARRAY[0]],
    ["2.json[1]", IN_ARRAY[1]],
    ["3.json", CASE_PAYLOAD],
  ]);
  expect(deliveries.map((d) => String(d.payload.id))).toEqual([
    "820982911946154508",
    "820982911946154509",
    "42",
    "820982911946154510",
  ]);
  expect(deliveries[3]).toMatchObject({ title: "a case", expect: { state: "created" } });
});

it("GIVEN a payload's bytes WHEN the demo stamps its dates THEN only the date values change", () => {
  const body = `{ "id": 820982911946154508,\n  "created_at": "2026-11-20T09:07:00.000Z", "updated_at" : "2026-11-20T09:07:00.000Z",\n  "cancelled_at": null, "note": "created_at" }`;
  const payload = {
    id: "820982911946154508",
    created_at: "x",
    updated_at: "x",
    cancelled_at: null,
    note: "created_at",
  };
  const now = new Date("2026-12-01T10:00:00.000Z");

  expect(bodyWithSendingTime(body, payload, now)).toBe(
    `{ "id": 820982911946154508,\n  "created_at": "2026-12-01T10:00:00.000Z", "updated_at" : "2026-12-01T10:00:00.000Z",\n  "cancelled_at": null, "note": "created_at" }`,
  );
});
