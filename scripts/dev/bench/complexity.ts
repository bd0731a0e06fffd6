/**
 * `npm run bench -- complexity [--runs 7]`: how the time of the routines that
 * read what customers and merchants type grows with its length, on the inputs
 * that once made them quadratic (a cell of 200,000 quotes froze the CSV import
 * for 13.8 s, 100,000 spaces in a phone took 14 s, a name over 50 KB broke the
 * masking). Each line: the CPU time at n and at 4n (each timed over enough calls
 * to last 20-100 ms, the fastest of --runs), their ratio (about 4 linear, 16
 * quadratic) and "over" when it passes LINEAR_BOUND. A ratio is a speed: what
 * the security tests assert on these inputs is the answer, not the time.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { mapOrderToLead, type City, type CatalogueProduct } from "../../../app/leads";
import { fromWebhookOrder } from "../../../app/leads/adapters/webhook-order";
import { phoneParts } from "../../../app/leads/phone";
import { parseMappingsCsv } from "../../../app/pages/mappings-csv";
import { maskPersonal } from "../../../app/pages/order-status-view.server";
import { LINEAR_BOUND, repeat, repetitionsFor, SCALE, timeRatio } from "./lib/complexity";
import { HOSTILE_CSV, HOSTILE_TEXT, hostileOrders } from "./lib/hostile-inputs";

const { values } = parseArgs({ options: { runs: { type: "string", default: "7" } } });
const runs = Number(values.runs);

const root = join(import.meta.dirname, "..", "..", "..");
const json = (...path: string[]) => JSON.parse(readFileSync(join(root, ...path), "utf8"));
const cities: City[] = json("sandbox", "seed", "cities.json");
// The public catalogue (the seed's products no account keeps to itself).
type SeedProduct = Omit<CatalogueProduct, "private"> & { private_to: string | null };
const catalogue: CatalogueProduct[] = (json("sandbox", "seed", "products.json") as SeedProduct[])
  .filter((p) => p.private_to === null)
  .map(({ private_to: _, ...p }) => ({ ...p, private: false }));
const fetchedAt = new Date("2026-11-20T09:00:00Z");
const context = { now: fetchedAt, catalogue, cities, catalogueFetchedAt: fetchedAt, citiesFetchedAt: fetchedAt };
const plainOrder = fromWebhookOrder(json("scripts", "dev", "demo", "orders", "01-clean-casablanca.json").payload);

let over = 0;

/** Times `call` on inputs of n and SCALE * n, each size over enough calls to last `floorMs`, and prints the line. */
function measure(name: string, n: number, input: (size: number) => () => unknown, floorMs = 50): void {
  const reps = repetitionsFor(input(n), floorMs, 1_000);
  const { small, large, ratio } = timeRatio(
    (size) => {
      const call = input(size);
      return () => repeat(call, reps);
    },
    n,
    runs,
  );
  const flag = ratio < LINEAR_BOUND ? "" : `  over ${LINEAR_BOUND}`;
  if (flag) over++;
  console.log(
    `${name.padEnd(52)} n=${String(n).padStart(7)} x${String(reps).padStart(4)}  ${small.toFixed(1).padStart(8)} ms  ${SCALE}n ${large.toFixed(1).padStart(8)} ms  ratio ${ratio.toFixed(2)}${flag}`,
  );
}

const csvCities = [{ id: 101, name: "Casablanca" }];
for (const [name, make] of Object.entries(HOSTILE_CSV)) {
  measure(`CSV import: ${name}`, 200_000, (size) => {
    const text = make(size);
    return () => parseMappingsCsv(text, { cities: csvCities });
  });
}

for (const name of ["spaces", "spaces around ou", "mixed whitespace"]) {
  measure(
    `phone splitter: ${name}`,
    100_000,
    (size) => {
      const text = HOSTILE_TEXT[name](size);
      return () => phoneParts(text);
    },
    20,
  );
}

const value = "Zahra".repeat(20_000);
measure("masking a 100 KB name in the order page's text", 20, (size) => {
  const text = `${value} x `.repeat(size);
  return () => maskPersonal(text, [value]);
});

// The mapper bounds every field first: its time must not grow with the fields' length at all.
const cases = hostileOrders(plainOrder);
measure(
  `mapper: ${cases.length} orders, one hostile field each`,
  100_000,
  (size) => {
    const orders = cases.map(({ at }) => at(size));
    return () => {
      for (const order of orders) mapOrderToLead(order, context);
    };
  },
  100,
);

console.log(
  over === 0
    ? `every ratio under ${LINEAR_BOUND}: linear (a loaded machine can push one over; run again before reading much into it)`
    : `${over} ratio(s) over ${LINEAR_BOUND}: a routine may have turned superlinear (or the machine was busy: run again)`,
);
