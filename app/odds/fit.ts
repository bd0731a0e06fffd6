/**
 * Fitting a shop's delivery-odds model on its own settled orders. The history
 * is replayed in time order, so each order's features are what was known when
 * it was placed (its customer's outcomes settled before it, the city's and
 * products' rates so far): the same facts the app has when it scores a new
 * order, and no order learns from its own outcome. The coefficients are a
 * logistic regression fitted by Newton's method with an L2 penalty pulling
 * each towards the pooled default (prior.ts). Pure.
 */
import {
  FEATURES,
  RECENT_HOURS,
  featureValues,
  shopRate,
  type CustomerFacts,
  type FeatureContext,
  type OrderFacts,
  type RateCounts,
} from "./features";
import { auc, brierScore } from "./metrics";
import { MODEL_VERSION, sigmoid, type StoredModel } from "./model";
import { PRIOR } from "./prior";

/** How an order that was sent ended (app/customers' outcomes, in_progress aside). */
export const SETTLED_OUTCOMES = ["delivered", "returned", "refused", "cancelled", "wrong_number"] as const;
export type SettledOutcome = (typeof SETTLED_OUTCOMES)[number];

/** One sent order of the shop's history. */
export interface HistoryOrder {
  placedAt: number;
  phoneKey: string | null;
  cityId: number | null;
  productKeys: readonly string[];
  amountCents: number | null;
  quantity: number;
  addressIncomplete: boolean;
  /** Null while the order has not settled. */
  outcome: SettledOutcome | null;
  settledAt: number | null;
}

/** Products kept in a stored model (the most settled first): a catalogue of thousands stays a small row. */
export const MAX_MODEL_PRODUCTS = 2000;

const RECENT_MS = RECENT_HOURS * 3600_000;

interface PhoneState extends CustomerFacts {
  recent: number[];
}

/** What the replay has counted so far: the shop's, cities' and products' settled orders. */
export interface LiveCounts {
  shop: RateCounts;
  cities: Map<number, RateCounts>;
  products: Map<string, RateCounts>;
}

const bump = <K>(map: Map<K, RateCounts>, key: K, delivered: boolean) => {
  const c = map.get(key) ?? map.set(key, { delivered: 0, settled: 0 }).get(key)!;
  c.settled += 1;
  if (delivered) c.delivered += 1;
};

/**
 * Replays the history in time order: `visit` sees each order when it is placed,
 * with its customer's facts at that moment and the counts so far (settlements
 * at the same instant as a placement come after it).
 */
export function walkHistory(
  orders: readonly HistoryOrder[],
  visit: (index: number, facts: OrderFacts, live: LiveCounts) => void,
): LiveCounts {
  const events: { at: number; kind: 0 | 1; index: number }[] = [];
  orders.forEach((o, index) => {
    events.push({ at: o.placedAt, kind: 0, index });
    if (o.outcome !== null) events.push({ at: Math.max(o.placedAt, o.settledAt ?? o.placedAt), kind: 1, index });
  });
  events.sort((a, b) => a.at - b.at || a.kind - b.kind || a.index - b.index);
  const phones = new Map<string, PhoneState>();
  const live: LiveCounts = { shop: { delivered: 0, settled: 0 }, cities: new Map(), products: new Map() };
  for (const event of events) {
    const order = orders[event.index];
    const phone = order.phoneKey
      ? (phones.get(order.phoneKey) ??
        phones
          .set(order.phoneKey, { delivered: 0, failed: 0, wrongNumber: 0, inProgress: 0, recentOrders: 0, recent: [] })
          .get(order.phoneKey)!)
      : null;
    if (event.kind === 0) {
      if (phone) {
        while (phone.recent.length > 0 && phone.recent[0] <= order.placedAt - RECENT_MS) phone.recent.shift();
        phone.recentOrders = phone.recent.length;
      }
      const customer = phone
        ? {
            delivered: phone.delivered,
            failed: phone.failed,
            wrongNumber: phone.wrongNumber,
            inProgress: phone.inProgress,
            recentOrders: phone.recentOrders,
          }
        : null;
      visit(
        event.index,
        {
          amountCents: order.amountCents,
          quantity: order.quantity,
          cityId: order.cityId,
          productKeys: order.productKeys,
          addressIncomplete: order.addressIncomplete,
          customer,
        },
        live,
      );
      if (phone) {
        phone.inProgress += 1;
        phone.recent.push(order.placedAt);
      }
      continue;
    }
    const delivered = order.outcome === "delivered";
    if (phone) {
      phone.inProgress -= 1;
      if (delivered) phone.delivered += 1;
      else if (order.outcome === "wrong_number") phone.wrongNumber += 1;
      else phone.failed += 1;
    }
    live.shop.settled += 1;
    if (delivered) live.shop.delivered += 1;
    if (order.cityId !== null) bump(live.cities, order.cityId, delivered);
    for (const key of order.productKeys) bump(live.products, key, delivered);
  }
  return live;
}

/** A median of the positive amounts; null when there is none. */
export function medianAmount(orders: readonly { amountCents: number | null }[]): number | null {
  const amounts = orders.flatMap((o) => (o.amountCents !== null && o.amountCents > 0 ? [o.amountCents] : []));
  if (amounts.length === 0) return null;
  amounts.sort((a, b) => a - b);
  const mid = amounts.length >> 1;
  return amounts.length % 2 ? amounts[mid] : (amounts[mid - 1] + amounts[mid]) / 2;
}

/** Feature rows of the settled orders (row-major, FEATURES order), with their labels, in placement order. */
export interface TrainingSet {
  x: Float64Array;
  y: Uint8Array;
  rows: number;
  live: LiveCounts;
  medianAmountCents: number | null;
}

/** The history's settled orders as training rows, each with the features it had when placed. */
export function trainingSet(orders: readonly HistoryOrder[]): TrainingSet {
  const k = FEATURES.length;
  const settled = orders.reduce((n, o) => n + (o.outcome === null ? 0 : 1), 0);
  const x = new Float64Array(settled * k);
  const y = new Uint8Array(settled);
  const medianAmountCents = medianAmount(orders);
  const context: FeatureContext = {
    shopRate: PRIOR.deliveryRate,
    cities: new Map(),
    products: new Map(),
    medianAmountCents,
  };
  let row = 0;
  const live = walkHistory(orders, (index, facts, counts) => {
    const order = orders[index];
    if (order.outcome === null) return;
    context.shopRate = shopRate(counts.shop, PRIOR.deliveryRate);
    context.cities = counts.cities;
    context.products = counts.products;
    x.set(featureValues(facts, context), row * k);
    y[row] = order.outcome === "delivered" ? 1 : 0;
    row += 1;
  });
  return { x, y, rows: row, live, medianAmountCents };
}

export interface Coefficients {
  intercept: number;
  beta: Float64Array;
  iterations: number;
}

const softplus = (z: number) => (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));

/** Solves A v = b for a symmetric positive definite A (n x n, row-major) by Cholesky; A is overwritten. */
function solveSpd(a: Float64Array, b: Float64Array, n: number): Float64Array {
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let k = 0; k < j; k++) d -= a[j * n + k] ** 2;
    const ljj = Math.sqrt(Math.max(d, 1e-12));
    a[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j];
      for (let k = 0; k < j; k++) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / ljj;
    }
  }
  const v = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < i; k++) v[i] -= a[i * n + k] * v[k];
    v[i] /= a[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let k = i + 1; k < n; k++) v[i] -= a[k * n + i] * v[k];
    v[i] /= a[i * n + i];
  }
  return v;
}

/**
 * Maximises the log-likelihood of `rows` rows minus an L2 penalty around the
 * prior (Newton's method, steps halved while they do not improve it). The
 * penalty keeps the problem strictly concave: it converges even when a feature
 * separates the outcomes, and with no rows it returns the prior.
 */
export function fitLogistic(
  set: Pick<TrainingSet, "x" | "y" | "rows">,
  prior: { intercept: number; beta: Float64Array },
  penalty: { intercept: number; beta: number },
  maxIterations = 30,
): Coefficients {
  const k = prior.beta.length;
  const p = k + 1;
  const theta = Float64Array.from([prior.intercept, ...prior.beta]);
  const center = Float64Array.from(theta);
  const lambda = Float64Array.from({ length: p }, (_, j) => (j === 0 ? penalty.intercept : penalty.beta));
  const { x, y, rows } = set;

  const objective = (t: Float64Array) => {
    let sum = 0;
    for (let i = 0; i < rows; i++) {
      let z = t[0];
      for (let j = 0; j < k; j++) z += t[j + 1] * x[i * k + j];
      sum -= y[i] ? softplus(-z) : softplus(z);
    }
    for (let j = 0; j < p; j++) sum -= 0.5 * lambda[j] * (t[j] - center[j]) ** 2;
    return sum;
  };

  let current = objective(theta);
  let iterations = 0;
  const row = new Float64Array(p);
  for (; iterations < maxIterations; iterations++) {
    const gradient = new Float64Array(p);
    const hessian = new Float64Array(p * p);
    for (let i = 0; i < rows; i++) {
      row[0] = 1;
      let z = theta[0];
      for (let j = 0; j < k; j++) {
        row[j + 1] = x[i * k + j];
        z += theta[j + 1] * row[j + 1];
      }
      const mu = sigmoid(z);
      const w = mu * (1 - mu);
      const r = y[i] - mu;
      for (let a = 0; a < p; a++) {
        gradient[a] += r * row[a];
        const wa = w * row[a];
        if (wa === 0) continue;
        for (let b = 0; b <= a; b++) hessian[a * p + b] += wa * row[b];
      }
    }
    for (let a = 0; a < p; a++) {
      gradient[a] -= lambda[a] * (theta[a] - center[a]);
      hessian[a * p + a] += lambda[a];
      for (let b = 0; b < a; b++) hessian[b * p + a] = hessian[a * p + b];
    }
    const step = solveSpd(hessian, gradient, p);
    let scale = 1;
    let next = theta.map((t, j) => t + step[j]);
    let value = objective(next);
    while (value < current - 1e-9 && scale > 1e-4) {
      scale /= 2;
      next = theta.map((t, j) => t + scale * step[j]);
      value = objective(next);
    }
    const moved = step.reduce((m, s) => Math.max(m, Math.abs(s * scale)), 0);
    theta.set(next);
    current = value;
    if (moved < 1e-7) {
      iterations += 1;
      break;
    }
  }
  return { intercept: theta[0], beta: theta.slice(1), iterations };
}

const PRIOR_BETA = Float64Array.from(FEATURES.map((f) => PRIOR.coefficients[f]));
const PENALTY = { intercept: PRIOR.interceptPenalty, beta: PRIOR.penalty };

/** The coefficients of a training set, pulled towards the prior. */
export function fitCoefficients(set: Pick<TrainingSet, "x" | "y" | "rows">): Coefficients {
  return fitLogistic(set, { intercept: PRIOR.intercept, beta: PRIOR_BETA }, PENALTY);
}

/** Below this many settled orders the model reports no quality figure (its latest fifth would be a handful). */
export const MIN_QUALITY_ORDERS = 50;

/** The latest fifth of the rows scored by a fit on the older four fifths. */
function qualityOf(set: TrainingSet): StoredModel["quality"] {
  if (set.rows < MIN_QUALITY_ORDERS) return undefined;
  const k = FEATURES.length;
  const cut = Math.floor(set.rows * 0.8);
  const older = fitCoefficients({ x: set.x.subarray(0, cut * k), y: set.y.subarray(0, cut), rows: cut });
  const scored = [];
  for (let i = cut; i < set.rows; i++) {
    let z = older.intercept;
    for (let j = 0; j < k; j++) z += older.beta[j] * set.x[i * k + j];
    scored.push({ probability: sigmoid(z), delivered: set.y[i] === 1 });
  }
  const round = (v: number) => Math.round(v * 10_000) / 10_000;
  return {
    brier: round(brierScore(scored)),
    auc: round(auc(scored)),
    heldOut: scored.length,
    baseRate: round(scored.filter((s) => s.delivered).length / scored.length),
  };
}

/** Of the failed orders, the share returned at the door, pulled towards the prior's while they are few. */
export function returnShareOf(orders: readonly HistoryOrder[]): number {
  let failed = 0;
  let returned = 0;
  for (const o of orders) {
    if (o.outcome === null || o.outcome === "delivered") continue;
    failed += 1;
    if (o.outcome === "returned") returned += 1;
  }
  return (returned + 20 * PRIOR.returnShare) / (failed + 20);
}

/** The stored model of a fitted training set. */
export function storedModelOf(
  orders: readonly HistoryOrder[],
  set: TrainingSet,
  fitted: Coefficients,
  quality: StoredModel["quality"],
  fittedAt: Date,
): StoredModel {
  const products = [...set.live.products]
    .sort((a, b) => b[1].settled - a[1].settled || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_MODEL_PRODUCTS);
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return {
    version: MODEL_VERSION,
    source: set.rows > 0 ? "fitted" : "prior",
    intercept: round(fitted.intercept),
    coefficients: Object.fromEntries(FEATURES.map((f, j) => [f, round(fitted.beta[j])])) as StoredModel["coefficients"],
    shop: { ...set.live.shop },
    cities: [...set.live.cities].sort((a, b) => a[0] - b[0]).map(([id, c]) => [id, c.delivered, c.settled]),
    products: products.map(([key, c]) => [key, c.delivered, c.settled]),
    medianAmountCents: set.medianAmountCents,
    returnShare: round(returnShareOf(orders)),
    settled: set.rows,
    fittedAt: fittedAt.toISOString(),
    ...(quality ? { quality } : {}),
  };
}

/**
 * Fits a shop's model on its history (its sent orders, settled or not). `pause`
 * runs between the replay, the fit and the quality fit (the worker yields its
 * event loop there).
 */
export async function fitOddsModelInSteps(
  orders: readonly HistoryOrder[],
  fittedAt: Date,
  pause: () => Promise<void>,
): Promise<StoredModel> {
  const set = trainingSet(orders);
  await pause();
  const fitted = fitCoefficients(set);
  await pause();
  const quality = qualityOf(set);
  return storedModelOf(orders, set, fitted, quality, fittedAt);
}

/** fitOddsModelInSteps in one go. */
export function fitOddsModel(orders: readonly HistoryOrder[], fittedAt: Date): StoredModel {
  const set = trainingSet(orders);
  return storedModelOf(orders, set, fitCoefficients(set), qualityOf(set), fittedAt);
}
