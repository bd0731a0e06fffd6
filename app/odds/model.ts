/**
 * The delivery-odds model of one shop: a logistic regression over the features
 * of features.ts, the shop's own rates (cities, products, the shop) and its
 * usual amount, as the fitting job stored them. `scoreOrder` gives the
 * probability that an order is delivered (paid at the door) and each feature's
 * contribution to its log-odds. Pure; a stored model is JSON (OddsModel), and
 * compiled once per version for scoring.
 */
import { z } from "zod";
import { FEATURES, featureValues, shopRate, type Feature, type FeatureContext, type OrderFacts } from "./features";
import { PRIOR } from "./prior";

export const MODEL_VERSION = 1;

export interface StoredModel {
  version: typeof MODEL_VERSION;
  /** "prior": the pooled default of a shop with no settled order yet; "fitted": fitted on the shop's own outcomes. */
  source: "prior" | "fitted";
  intercept: number;
  coefficients: Record<Feature, number>;
  /** The shop's delivered and settled orders, its cities' and products' ([key, delivered, settled]). */
  shop: { delivered: number; settled: number };
  cities: [number, number, number][];
  products: [string, number, number][];
  medianAmountCents: number | null;
  /** Of the orders that failed, the share that were parcels returned at the door (fee out and fee back). */
  returnShare: number;
  /** Settled orders the fit read. */
  settled: number;
  fittedAt: string;
  /** The same fit on the older four fifths, scored on the latest fifth (absent below 50 settled orders). */
  quality?: { brier: number; auc: number; heldOut: number; baseRate: number };
}

const counts = z.tuple([z.number().finite(), z.number().finite().nonnegative(), z.number().finite().nonnegative()]);
const storedModelSchema = z.object({
  version: z.literal(MODEL_VERSION),
  source: z.enum(["prior", "fitted"]),
  intercept: z.number().finite(),
  coefficients: z.object(
    Object.fromEntries(FEATURES.map((f) => [f, z.number().finite()])) as Record<Feature, z.ZodNumber>,
  ),
  shop: z.object({ delivered: z.number().nonnegative(), settled: z.number().nonnegative() }),
  cities: z.array(counts),
  products: z.array(z.tuple([z.string(), z.number().finite(), z.number().finite().nonnegative()])),
  medianAmountCents: z.number().positive().nullable(),
  returnShare: z.number().min(0).max(1),
  settled: z.number().int().nonnegative(),
  fittedAt: z.string(),
  quality: z.object({ brier: z.number(), auc: z.number(), heldOut: z.number().int(), baseRate: z.number() }).optional(),
});

/** A stored model read back; null for anything else (an older version, damaged JSON). */
export function parseStoredModel(value: unknown): StoredModel | null {
  const parsed = storedModelSchema.safeParse(value);
  return parsed.success ? (parsed.data as StoredModel) : null;
}

/** The model of a shop that has settled nothing yet: the pooled default (prior.ts). */
export function priorModel(fittedAt = new Date(0)): StoredModel {
  return {
    version: MODEL_VERSION,
    source: "prior",
    intercept: PRIOR.intercept,
    coefficients: { ...PRIOR.coefficients },
    shop: { delivered: 0, settled: 0 },
    cities: [],
    products: [],
    medianAmountCents: null,
    returnShare: PRIOR.returnShare,
    settled: 0,
    fittedAt: fittedAt.toISOString(),
  };
}

/** A stored model ready to score: its tables as maps, its coefficients in FEATURES order. */
export interface OddsModel {
  stored: StoredModel;
  intercept: number;
  beta: Float64Array;
  context: FeatureContext;
}

export function compileModel(stored: StoredModel): OddsModel {
  return {
    stored,
    intercept: stored.intercept,
    beta: Float64Array.from(FEATURES.map((f) => stored.coefficients[f])),
    context: {
      shopRate: shopRate(stored.shop, PRIOR.deliveryRate),
      cities: new Map(stored.cities.map(([id, delivered, settled]) => [id, { delivered, settled }])),
      products: new Map(stored.products.map(([key, delivered, settled]) => [key, { delivered, settled }])),
      medianAmountCents: stored.medianAmountCents,
    },
  };
}

export interface OddsScore {
  /** Probability that the order is delivered if sent. */
  probability: number;
  logit: number;
  /** Feature values, in FEATURES order. */
  values: Float64Array;
  /** Each feature's contribution to the log-odds (coefficient x value), in FEATURES order. */
  contributions: Float64Array;
}

export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

export function scoreOrder(model: OddsModel, facts: OrderFacts): OddsScore {
  const values = featureValues(facts, model.context);
  const contributions = new Float64Array(values.length);
  let z = model.intercept;
  for (let j = 0; j < values.length; j++) {
    contributions[j] = model.beta[j] * values[j];
    z += contributions[j];
  }
  return { probability: sigmoid(z), logit: z, values, contributions };
}
