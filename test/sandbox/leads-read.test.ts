import { describe, expect, it } from "vitest";
import { type DetailBody, type ErrorBody, type ListBody, useSandbox, uniquePhone, validLead } from "./helpers";

const sb = useSandbox();

async function createMany(
  n: number,
  key?: string,
  overrides: (i: number) => Record<string, unknown> = () => ({}),
): Promise<string[]> {
  await sb.control.config({ rate_limit_per_minute: 100_000 });
  const refs: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await sb.createLead(
      validLead({ customer_phone: uniquePhone(), external_ref: `#${i}`, ...overrides(i) }),
      key,
    );
    refs.push(res.body.data.ref);
  }
  return refs;
}

describe("GET /v1/leads", () => {
  it("lists the seller's leads newest first, with next_before null on the last page", async () => {
    const refs = await createMany(3);
    const res = await sb.call<ListBody>("GET", "/v1/leads");
    expect(res.status).toBe(200);
    expect(res.body.data.map((l) => l.ref)).toEqual([...refs].reverse());
    expect(res.body.next_before).toBeNull();
    expect(res.body.data[0]).toMatchObject({
      confirmation_status: "new",
      shipping_status: "pending",
      total_client: "149.00",
    });
  });

  it("pages through 250 leads by cursor without gap or repeat, 50 by default", async () => {
    const refs = await createMany(250);
    const seen: string[] = [];
    let before: number | null = null;
    let pages = 0;
    do {
      const res: { body: ListBody } = await sb.call<ListBody>(
        "GET",
        `/v1/leads${before === null ? "" : `?before=${before}`}`,
      );
      expect(res.body.data.length).toBe(50);
      seen.push(...res.body.data.map((l) => l.ref));
      before = res.body.next_before;
      pages++;
    } while (before !== null);
    expect(pages).toBe(5);
    expect(seen).toEqual([...refs].reverse());
  });

  it("pages with an odd limit and ends on a short page", async () => {
    const refs = await createMany(250);
    const seen: string[] = [];
    let path = "/v1/leads?limit=33";
    for (;;) {
      const res = await sb.call<ListBody>("GET", path);
      seen.push(...res.body.data.map((l) => l.ref));
      if (res.body.next_before === null) {
        expect(res.body.data.length).toBe(250 % 33);
        break;
      }
      expect(res.body.next_before).toBe(res.body.data[res.body.data.length - 1].id);
      path = `/v1/leads?limit=33&before=${res.body.next_before}`;
    }
    expect(new Set(seen).size).toBe(250);
    expect(seen).toEqual([...refs].reverse());
  });

  it("a page that exactly fills the last leads gives next_before null", async () => {
    await createMany(4);
    const res = await sb.call<ListBody>("GET", "/v1/leads?limit=4");
    expect(res.body.data).toHaveLength(4);
    expect(res.body.next_before).toBeNull();
  });

  it("accepts limit 1 and 100, and answers 422 outside 1..100 or malformed", async () => {
    await createMany(2);
    expect((await sb.call<ListBody>("GET", "/v1/leads?limit=1")).body.data).toHaveLength(1);
    expect((await sb.call<ListBody>("GET", "/v1/leads?limit=100")).status).toBe(200);
    for (const limit of ["0", "101", "-1", "abc", "1.5", ""]) {
      const res = await sb.call<ErrorBody>("GET", `/v1/leads?limit=${limit}`);
      expect(res.status, `limit=${limit}`).toBe(422);
      expect(res.body.error).toMatchObject({ code: "validation_error", field: "limit" });
    }
  });

  it("answers 422 for a malformed cursor", async () => {
    const res = await sb.call<ErrorBody>("GET", "/v1/leads?before=ATB-100001");
    expect(res.status).toBe(422);
    expect(res.body.error.field).toBe("before");
  });

  it("filters on confirmation_status, and pages within the filter", async () => {
    const refs = await createMany(6);
    for (const ref of [refs[0], refs[2], refs[4]]) await sb.control.advance(ref, { confirmation_status: "confirmed" });
    await sb.control.advance(refs[5], { confirmation_status: "canceled" });

    const first = await sb.call<ListBody>("GET", "/v1/leads?status=confirmed&limit=2");
    expect(first.body.data.map((l) => l.ref)).toEqual([refs[4], refs[2]]);
    const second = await sb.call<ListBody>(
      "GET",
      `/v1/leads?status=confirmed&limit=2&before=${first.body.next_before}`,
    );
    expect(second.body.data.map((l) => l.ref)).toEqual([refs[0]]);
    expect(second.body.next_before).toBeNull();
    expect((await sb.call<ListBody>("GET", "/v1/leads?status=canceled")).body.data.map((l) => l.ref)).toEqual([
      refs[5],
    ]);
    expect((await sb.call<ErrorBody>("GET", "/v1/leads?status=shipped")).status).toBe(422);
  });

  it("filters on since (YYYY-MM-DD, UTC day) and answers 422 when malformed", async () => {
    const [old] = await createMany(1);
    await sb.control.clock(3 * 86_400);
    const [recent] = await createMany(1);
    const today = (await sb.control.clock()).now.slice(0, 10);
    const yesterday = new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10);
    const oldDay = new Date(Date.parse(today) - 3 * 86_400_000).toISOString().slice(0, 10);

    expect((await sb.call<ListBody>("GET", `/v1/leads?since=${today}`)).body.data.map((l) => l.ref)).toEqual([recent]);
    expect((await sb.call<ListBody>("GET", `/v1/leads?since=${yesterday}`)).body.data.map((l) => l.ref)).toEqual([
      recent,
    ]);
    expect((await sb.call<ListBody>("GET", `/v1/leads?since=${oldDay}`)).body.data.map((l) => l.ref)).toEqual([
      recent,
      old,
    ]);
    for (const since of ["2024-13-01", "2024-02-30", "20240101", "01/02/2024", "2024-1-1", "yesterday"]) {
      const res = await sb.call<ErrorBody>("GET", `/v1/leads?since=${since}`);
      expect(res.status, since).toBe(422);
      expect(res.body.error.field).toBe("since");
    }
  });

  it("never lists another seller's leads", async () => {
    const mine = await createMany(2);
    const theirs = await createMany(3, sb.keys[1].key, () => ({ items: [{ sku: "RIF-OLIVE-1L", quantity: 1 }] }));
    const a = await sb.call<ListBody>("GET", "/v1/leads");
    const b = await sb.call<ListBody>("GET", "/v1/leads", { key: sb.keys[1].key });
    expect(a.body.data.map((l) => l.ref)).toEqual([...mine].reverse());
    expect(b.body.data.map((l) => l.ref)).toEqual([...theirs].reverse());
  });
});

describe("GET /v1/leads/{ref}", () => {
  it("reads a lead with tracking_number and seller_profit (null before pickup and delivery)", async () => {
    const [ref] = await createMany(1);
    const res = await sb.call<DetailBody>("GET", `/v1/leads/${ref}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      ref,
      confirmation_status: "new",
      shipping_status: "pending",
      tracking_number: null,
      seller_profit: null,
      external_ref: "#0",
      city_id: 101,
      items: [{ sku: "ARG-OIL-50", product_id: 1001, quantity: 1 }],
    });
  });

  it("answers the same 404 for an unknown ref and for another seller's ref", async () => {
    const [theirs] = await createMany(1, sb.keys[1].key, () => ({ items: [{ sku: "RIF-OLIVE-1L", quantity: 1 }] }));
    const foreign = await sb.call<ErrorBody>("GET", `/v1/leads/${theirs}`);
    const unknown = await sb.call<ErrorBody>("GET", "/v1/leads/RIF-999999");
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect((await sb.call("GET", `/v1/leads/${theirs}`, { key: sb.keys[1].key })).status).toBe(200);
  });
});
