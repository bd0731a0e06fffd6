import { describe, expect, it } from "vitest";
import { type DetailBody, type ErrorBody, useSandbox, uniquePhone, validLead } from "./helpers";

const sb = useSandbox();

describe("POST /v1/leads: accepted (201)", () => {
  it("GIVEN a valid lead THEN 201 with data.ref shaped <lead_prefix>-<digits>, entering the queue as new / pending", async () => {
    const res = await sb.createLead(validLead());
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ref: "ATB-100001",
      damaged: false,
      anomalies: [],
      confirmation_status: "new",
      shipping_status: "pending",
    });
    expect(res.headers.get("location")).toBe("/v1/leads/ATB-100001");
    const second = await sb.createLead(validLead({ customer_phone: uniquePhone() }));
    expect(second.body.data.ref).toBe("ATB-100002");
    expect(second.body.data.id).toBeGreaterThan(res.body.data.id);
  });

  it("uses the second seller's own prefix", async () => {
    const res = await sb.createLead(validLead({ items: [{ sku: "RIF-OLIVE-1L", quantity: 1 }] }), sb.keys[1].key);
    expect(res.status).toBe(201);
    expect(res.body.data.ref).toMatch(/^RIF-\d+$/);
  });

  it("finds the city by name (case and surrounding spaces ignored) or by id", async () => {
    for (const city of ["Casablanca", "  casablanca ", 101, "101"]) {
      const res = await sb.createLead(validLead({ city, customer_phone: uniquePhone() }));
      expect(res.status, `city ${JSON.stringify(city)}`).toBe(201);
    }
    const stored = await sb.control.leads("ACC-1001");
    expect(stored.map((l) => l.city_id)).toEqual([101, 101, 101, 101]);
  });

  it("finds items by product sku, by variant sku and by product_id", async () => {
    const res = await sb.createLead(
      validLead({
        total_client: "800.00",
        items: [
          { sku: "ARG-OIL-50", quantity: 2 },
          { sku: "SMW-X8-BLK", quantity: 1 },
          { product_id: 1014, quantity: 1 },
        ],
      }),
    );
    expect(res.status).toBe(201);
    const [lead] = await sb.control.leads("ACC-1001");
    expect(
      lead.items.map((i) => i.resolved && [i.resolved.product_id, i.resolved.variant_id, i.resolved.platform_price]),
    ).toEqual([
      [1001, null, "45.00"],
      [1007, 100701, "119.00"],
      [1014, null, "260.00"],
    ]);
  });

  it("accepts a private product of the key's own seller", async () => {
    const res = await sb.createLead(
      validLead({ total_client: "200.00", items: [{ sku: "ATLS-HONEY-500", quantity: 1 }] }),
    );
    expect(res.status).toBe(201);
  });

  it("stores external_ref byte for byte", async () => {
    const externalRef = '  #1001 / Commande «été» 🛒 \t\\"x"  ';
    const res = await sb.createLead(validLead({ external_ref: externalRef }));
    expect(res.body.data.external_ref).toBe(externalRef);
    const detail = await sb.call<DetailBody>("GET", `/v1/leads/${res.body.data.ref}`);
    expect(detail.body.data.external_ref).toBe(externalRef);
    expect((await sb.control.leads("ACC-1001"))[0].external_ref).toBe(externalRef);
  });

  it("attaches the key's store to the lead, and none for a key without store", async () => {
    const res = await sb.createLead(validLead());
    expect((await sb.call<DetailBody>("GET", `/v1/leads/${res.body.data.ref}`)).body.data.store).toBe(
      "atlas-beauty.myshopify.com",
    );
    const bare = await sb.control.createKey({ account: "ACC-1001", name: "csv import" });
    const other = await sb.createLead(
      validLead({ customer_phone: uniquePhone(), store: "evil.myshopify.com" }),
      bare.key,
    );
    expect((await sb.call<DetailBody>("GET", `/v1/leads/${other.body.data.ref}`)).body.data.store).toBeNull();
  });

  it("ignores unknown request fields", async () => {
    const res = await sb.createLead(
      validLead({
        utm_source: "instagram",
        note: { gift: true },
        items: [{ sku: "ARG-OIL-50", quantity: 1, color: "red" }],
      }),
    );
    expect(res.status).toBe(201);
  });

  it("accepts a lead without address or external_ref (not stated as required)", async () => {
    const { address: _a, external_ref: _e, ...rest } = validLead();
    const res = await sb.createLead(rest);
    expect(res.status).toBe(201);
    expect(res.body.data.external_ref).toBeNull();
  });
});

describe("POST /v1/leads: damaged (202), never refused", () => {
  const codes = (res: { body: { data: { anomalies: { code: string }[] } } }) =>
    res.body.data.anomalies.map((a) => a.code);

  it("unknown SKU -> 202 unknown_sku naming the item", async () => {
    const res = await sb.createLead(
      validLead({
        items: [
          { sku: "ARG-OIL-50", quantity: 1 },
          { sku: "NOPE-1", quantity: 1 },
        ],
      }),
    );
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ damaged: true, anomalies: [{ code: "unknown_sku", field: "items[1].sku" }] });
    expect(res.body.data.ref).toMatch(/^ATB-\d+$/);
  });

  it("unknown product_id, and another seller's private product, are unknown SKUs too", async () => {
    const byId = await sb.createLead(validLead({ items: [{ product_id: 999999, quantity: 1 }] }));
    expect(byId.status).toBe(202);
    expect(byId.body.data.anomalies[0]).toMatchObject({ code: "unknown_sku", field: "items[0].product_id" });
    const foreign = await sb.createLead(
      validLead({ customer_phone: uniquePhone(), items: [{ sku: "RIF-OLIVE-1L", quantity: 1 }] }),
    );
    expect(foreign.status).toBe(202);
    expect(codes(foreign)).toEqual(["unknown_sku"]);
  });

  it("unrecognized city (or none) -> 202 unknown_city", async () => {
    const res = await sb.createLead(validLead({ city: "Casablanka" }));
    expect(res.status).toBe(202);
    expect(res.body.data.anomalies).toEqual([expect.objectContaining({ code: "unknown_city", field: "city" })]);
    const none = await sb.createLead(validLead({ city: undefined, customer_phone: uniquePhone() }));
    expect(codes(none)).toEqual(["unknown_city"]);
    const badId = await sb.createLead(validLead({ city: 99999, customer_phone: uniquePhone() }));
    expect(codes(badId)).toEqual(["unknown_city"]);
  });

  it("inconsistent total: below prices + delivery fee, zero, or absent -> 202 inconsistent_total", async () => {
    // ARG-OIL-50 x2 = 90.00 + Casablanca 20.00 = 110.00
    const items = [{ sku: "ARG-OIL-50", quantity: 2 }];
    const exact = await sb.createLead(validLead({ items, total_client: "110.00", customer_phone: uniquePhone() }));
    expect(exact.status).toBe(201);
    const below = await sb.createLead(validLead({ items, total_client: "109.99", customer_phone: uniquePhone() }));
    expect(below.status).toBe(202);
    expect(below.body.data.anomalies).toEqual([
      expect.objectContaining({ code: "inconsistent_total", field: "total_client" }),
    ]);
    const zero = await sb.createLead(validLead({ items, total_client: "0.00", customer_phone: uniquePhone() }));
    expect(codes(zero)).toEqual(["inconsistent_total"]);
    const absent = await sb.createLead(validLead({ items, total_client: undefined, customer_phone: uniquePhone() }));
    expect(codes(absent)).toEqual(["inconsistent_total"]);
  });

  it("does not judge the total against a fee it cannot know (unknown city)", async () => {
    const res = await sb.createLead(validLead({ city: "Atlantis", total_client: "46.00" }));
    expect(codes(res)).toEqual(["unknown_city"]);
  });

  it("several anomalies at once are all reported", async () => {
    await sb.createLead(validLead());
    const res = await sb.createLead(
      validLead({
        city: "Atlantis",
        total_client: "0.00",
        items: [
          { sku: "ARG-OIL-50", quantity: 1 },
          { sku: "GHOST", quantity: 1 },
        ],
      }),
    );
    expect(res.status).toBe(202);
    expect(codes(res)).toEqual(["unknown_sku", "unknown_city", "inconsistent_total", "recent_duplicate"]);
  });

  it("damaged leads are listed and readable with damaged: true and their anomalies", async () => {
    const res = await sb.createLead(validLead({ city: "Atlantis" }));
    const list = await sb.call<{ data: { ref: string; damaged: boolean; anomalies: unknown[] }[] }>("GET", "/v1/leads");
    expect(list.body.data[0]).toMatchObject({
      ref: res.body.data.ref,
      damaged: true,
      anomalies: [expect.objectContaining({ code: "unknown_city" })],
    });
    const detail = await sb.call<DetailBody>("GET", `/v1/leads/${res.body.data.ref}`);
    expect(detail.body.data).toMatchObject({ damaged: true, confirmation_status: "new", shipping_status: "pending" });
    expect(detail.body.data.anomalies).toHaveLength(1);
  });
});

describe("recent duplicate: same phone + same product inside the window", () => {
  const phone = "0700000001";

  it("flags the second lead and names the first", async () => {
    const first = await sb.createLead(validLead({ customer_phone: phone }));
    const second = await sb.createLead(validLead({ customer_phone: phone, external_ref: "#1002" }));
    expect(second.status).toBe(202);
    expect(second.body.data.anomalies).toEqual([
      expect.objectContaining({ code: "recent_duplicate", field: "customer_phone", duplicate_of: first.body.data.ref }),
    ]);
  });

  it("counts a variant as its product, but not another product or another phone", async () => {
    await sb.createLead(
      validLead({ customer_phone: phone, total_client: "200.00", items: [{ sku: "SMW-X8-BLK", quantity: 1 }] }),
    );
    expect(
      (
        await sb.createLead(
          validLead({ customer_phone: phone, total_client: "200.00", items: [{ sku: "SMW-X8-SLV", quantity: 1 }] }),
        )
      ).status,
    ).toBe(202);
    expect(
      (await sb.createLead(validLead({ customer_phone: phone, items: [{ sku: "AMLOU-250", quantity: 1 }] }))).status,
    ).toBe(201);
    expect(
      (
        await sb.createLead(
          validLead({ customer_phone: "0700000002", total_client: "200.00", items: [{ sku: "SMW-X8", quantity: 1 }] }),
        )
      ).status,
    ).toBe(201);
  });

  it("is per seller: the same phone and public product at another seller is no duplicate", async () => {
    await sb.createLead(validLead({ customer_phone: phone }));
    expect((await sb.createLead(validLead({ customer_phone: phone }), sb.keys[1].key)).status).toBe(201);
  });

  it("edge: 599 s later still a duplicate, exactly 600 s later no longer", async () => {
    await sb.createLead(validLead({ customer_phone: phone, items: [{ sku: "ARG-OIL-50", quantity: 1 }] }));
    await sb.control.clock(599);
    expect(
      (await sb.createLead(validLead({ customer_phone: phone, items: [{ product_id: 1001, quantity: 1 }] }))).status,
    ).toBe(202);

    await sb.control.reset().then((r) => (sb.keys = r.keys));
    await sb.createLead(validLead({ customer_phone: phone }));
    await sb.control.clock(600);
    expect((await sb.createLead(validLead({ customer_phone: phone }))).status).toBe(201);
  });

  it("follows the configured window", async () => {
    await sb.control.config({ duplicate_window_seconds: 30 });
    await sb.createLead(validLead({ customer_phone: phone }));
    await sb.control.clock(30);
    expect((await sb.createLead(validLead({ customer_phone: phone }))).status).toBe(201);
    await sb.control.clock(29);
    expect((await sb.createLead(validLead({ customer_phone: phone }))).status).toBe(202);
  });
});

describe("POST /v1/leads: refusals", () => {
  it("400 for a body that is not valid JSON", async () => {
    for (const raw of ["{bad json", "", '{"customer_name": "x",}']) {
      const res = await sb.call<ErrorBody>("POST", "/v1/leads", {
        raw,
        headers: { "Content-Type": "application/json" },
      });
      expect(res.status, raw).toBe(400);
      expect(res.body.error.code).toBe("invalid_body");
    }
    expect((await sb.control.leads()).length).toBe(0);
  });

  it("400 when the body is not sent as application/json", async () => {
    const res = await sb.call<ErrorBody>("POST", "/v1/leads", {
      raw: JSON.stringify(validLead()),
      headers: { "Content-Type": "text/plain" },
    });
    expect(res.status).toBe(400);
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ["customer_name missing", { customer_name: undefined }, "customer_name"],
    ["customer_name empty", { customer_name: "  " }, "customer_name"],
    ["customer_name not a string", { customer_name: 42 }, "customer_name"],
    ["customer_phone missing", { customer_phone: undefined }, "customer_phone"],
    ["phone starting 05", { customer_phone: "0512345678" }, "customer_phone"],
    ["phone in +212 form", { customer_phone: "+212612345678" }, "customer_phone"],
    ["phone with spaces", { customer_phone: "06 12 34 56 78" }, "customer_phone"],
    ["phone too short", { customer_phone: "061234567" }, "customer_phone"],
    ["phone as a number", { customer_phone: 612345678 }, "customer_phone"],
    ["items missing", { items: undefined }, "items"],
    ["items empty", { items: [] }, "items"],
    ["items not an array", { items: { sku: "ARG-OIL-50", quantity: 1 } }, "items"],
    ["item not an object", { items: ["ARG-OIL-50"] }, "items[0]"],
    ["item without quantity", { items: [{ sku: "ARG-OIL-50" }] }, "items[0].quantity"],
    ["quantity zero", { items: [{ sku: "ARG-OIL-50", quantity: 0 }] }, "items[0].quantity"],
    ["quantity negative", { items: [{ sku: "ARG-OIL-50", quantity: -1 }] }, "items[0].quantity"],
    ["quantity fractional", { items: [{ sku: "ARG-OIL-50", quantity: 1.5 }] }, "items[0].quantity"],
    ["quantity as a string", { items: [{ sku: "ARG-OIL-50", quantity: "2" }] }, "items[0].quantity"],
    [
      "item with both sku and product_id",
      { items: [{ sku: "ARG-OIL-50", product_id: 1001, quantity: 1 }] },
      "items[0]",
    ],
    [
      "item with neither sku nor product_id",
      { items: [{ sku: "ARG-OIL-50", quantity: 1 }, { quantity: 1 }] },
      "items[1]",
    ],
    ["product_id not an integer", { items: [{ product_id: "1001", quantity: 1 }] }, "items[0].product_id"],
    ["sku empty", { items: [{ sku: "", quantity: 1 }] }, "items[0].sku"],
    ["total as a number", { total_client: 149 }, "total_client"],
    ["total with one decimal", { total_client: "149.0" }, "total_client"],
    ["total without decimals", { total_client: "149" }, "total_client"],
    ["total with a comma", { total_client: "149,00" }, "total_client"],
    ["total negative", { total_client: "-1.00" }, "total_client"],
    ["city an object", { city: { id: 101 } }, "city"],
    ["city zero", { city: 0 }, "city"],
    ["city empty string", { city: "" }, "city"],
    ["external_ref not a string", { external_ref: 1001 }, "external_ref"],
    ["address not a string", { address: ["12 rue"] }, "address"],
  ];

  it.each(cases)("422 naming the field: %s", async (_name, overrides, field) => {
    const res = await sb.createLead(validLead(overrides));
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "validation_error", field });
  });

  it("422 for a JSON body that is not an object, and nothing is stored for any refusal", async () => {
    const res = await sb.call<ErrorBody>("POST", "/v1/leads", { body: [validLead()] });
    expect(res.status).toBe(422);
    expect(res.body.error.field).toBe("body");
    expect((await sb.control.leads()).length).toBe(0);
  });
});
