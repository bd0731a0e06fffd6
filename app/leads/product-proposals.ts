/**
 * Which platform product an unknown line may be, and how sure that is.
 *
 * certain: proven by a rule, shown as the one-click fix. The platform's SKU with a
 * suffix that names one of its variants or restates its size ("SMW-X8-NOIR",
 * "ARG-OIL-50ML", "JLB-SANDAL-T40"); the platform's name word for word, in another
 * spelling or language, with the same quantities, model, colour and size; a SKU the
 * merchant already mapped, written another way. Only when exactly one item fits.
 *
 * likely: shares what names the product and contradicts nothing the merchant would
 * pay for (another size, model, colour, audience, pack or variety): a secondary choice
 * the merchant judges with the product's name, price and stock in view.
 *
 * Anything else is not proposed: an empty list means "not on the platform".
 * test/leads/proposals-corpus.test.ts measures both on a labelled corpus.
 */
import type { CatalogueEntry, CatalogueIndex } from "./sku-match";
import { roundScore } from "./similarity";
import {
  colourOf,
  conflictingQuantity,
  isDistinguishing,
  nameConcepts,
  sameQuantity,
  sameSkuToken,
  sizeOf,
  skuTokens,
  type NameConcepts,
  type Quantity,
  type SkuToken,
} from "./product-words";
import type { ProductReason, ProductSuggestion, ShopLineItem } from "./types";

const LIKELY_COUNT = 3;
/** Weighted overlap of the names from which an item is a likely choice (see the corpus test). */
const LIKELY_FLOOR = 0.5;

interface Candidate {
  entry: CatalogueEntry;
  sku: SkuToken[];
  /** The product's own SKU tokens, for a variant. */
  productSku: SkuToken[];
  /** What the variant's name says: a colour or a size. */
  variantColour?: string;
  variantSize?: string;
  /** The product has variants and this is the product itself. */
  hasVariants: boolean;
  /** Colours and sizes of the product's variants (for a product-level entry). */
  variantColours: Set<string>;
  variantSizes: Set<string>;
  name: NameConcepts;
}

interface ProposalIndex {
  candidates: Candidate[];
  /** Candidates by a concept of their name and by their SKU's first word. */
  byConcept: Map<string, number[]>;
  memo: Map<string, ProductSuggestion[]>;
}

const MEMO_SIZE = 2000;
const indexes = new WeakMap<CatalogueIndex, ProposalIndex>();

/** The colour or size a variant's name is, when that is all it says ("Noir", "40", "Taille L"; not "Noir Pro"). */
function variantTraits(name: string | undefined): { colour?: string; size?: string } {
  if (!name) return {};
  const size = sizeOf(name);
  if (size) return { size };
  const c = nameConcepts(name);
  const pink = c.words.length === 1 && colourOf(c.words[0]) === "pink";
  const onlyColour = c.models.length === 0 && c.quantities.length === 0 && c.sizes.length === 0;
  if (onlyColour && c.words.length === 0 && c.colours.length === 1) return { colour: c.colours[0] };
  // "Rose" reads as the flower in a name: alone as a variant, it is the colour.
  return onlyColour && pink && c.colours.length === 0 ? { colour: "pink" } : {};
}

function buildProposalIndex(catalogue: CatalogueIndex): ProposalIndex {
  const candidates: Candidate[] = [];
  const byConcept = new Map<string, number[]>();
  const traitsOf = new Map<number, { colours: Set<string>; sizes: Set<string> }>();
  for (const entry of catalogue.nameEntries) {
    if (!entry.variant) continue;
    const traits = variantTraits(entry.variant.name);
    let known = traitsOf.get(entry.product.id);
    if (!known) traitsOf.set(entry.product.id, (known = { colours: new Set(), sizes: new Set() }));
    if (traits.colour) known.colours.add(traits.colour);
    if (traits.size) known.sizes.add(traits.size);
  }
  for (const entry of catalogue.nameEntries) {
    if (!entry.sku) continue;
    const traits = variantTraits(entry.variant?.name);
    const product = traitsOf.get(entry.product.id);
    const name = nameConcepts(entry.product.name ?? "");
    addVariant(name, entry.variant?.name);
    const candidate: Candidate = {
      entry,
      sku: skuTokens(entry.sku),
      productSku: skuTokens(entry.product.sku ?? ""),
      ...(traits.colour ? { variantColour: traits.colour } : {}),
      ...(traits.size ? { variantSize: traits.size } : {}),
      hasVariants: !entry.variant && product !== undefined,
      variantColours: product?.colours ?? new Set(),
      variantSizes: product?.sizes ?? new Set(),
      name,
    };
    const id = candidates.push(candidate) - 1;
    const first = candidate.sku[0];
    const keys = new Set([...name.words, ...name.models, ...(first?.kind === "word" ? [`sku:${first.value}`] : [])]);
    for (const key of keys) {
      let list = byConcept.get(key);
      if (!list) byConcept.set(key, (list = []));
      list.push(id);
    }
  }
  return { candidates, byConcept, memo: new Map() };
}

function proposalIndexFor(catalogue: CatalogueIndex): ProposalIndex {
  let index = indexes.get(catalogue);
  // Stryker disable next-line ConditionalExpression: a cache; rebuilding it gives the same index, only slower
  if (!index) indexes.set(catalogue, (index = buildProposalIndex(catalogue)));
  return index;
}

// ---------------------------------------------------------------------------
// The line

interface LineView {
  sku: SkuToken[];
  name: NameConcepts;
}

/**
 * The line's product and variant. Shopify's name is "Title - Variant"; a merchant's title
 * sometimes ends the same way ("Sandales cuir - 39"): the last part is the variant when it
 * names a colour or a size, part of the name otherwise.
 */
function lineText(line: Pick<ShopLineItem, "name" | "title" | "variantTitle">): { text: string; variant?: string } {
  const raw = (line.variantTitle ?? "").trim();
  const variant = raw.toLowerCase() === "default title" ? "" : raw;
  const text = (line.name ?? "").trim() || (line.title ?? "").trim();
  if (variant) {
    return text.endsWith(` - ${variant}`) ? { text: text.slice(0, -(variant.length + 3)), variant } : { text, variant };
  }
  const dash = text.lastIndexOf(" - ");
  const tail = dash > 0 ? text.slice(dash + 3) : "";
  return tail && (sizeOf(tail) || variantTraits(tail).colour) ? { text: text.slice(0, dash), variant: tail } : { text };
}

/** Adds what a variant's name says: its colour or size, or its words ("Standard", "Pointure 41"). */
function addVariant(name: NameConcepts, variant: string | undefined) {
  if (!variant) return;
  const traits = variantTraits(variant);
  if (traits.colour) {
    if (!name.colours.includes(traits.colour)) name.colours.push(traits.colour);
  } else if (traits.size) name.sizes.push(traits.size);
  else {
    const extra = nameConcepts(variant);
    for (const word of extra.words) if (!name.words.includes(word)) name.words.push(word);
    for (const colour of extra.colours) if (!name.colours.includes(colour)) name.colours.push(colour);
    name.models.push(...extra.models);
    name.quantities.push(...extra.quantities);
    name.sizes.push(...extra.sizes);
  }
}

function lineView(line: Pick<ShopLineItem, "sku" | "name" | "title" | "variantTitle">): LineView {
  const { text, variant } = lineText(line);
  const name = nameConcepts(text);
  addVariant(name, variant);
  const sku = typeof line.sku === "string" ? skuTokens(line.sku) : [];
  // A colour or size the SKU names is the line's too, unless its title names one ("SMW-X8-NOIR").
  if (name.colours.length === 0) for (const t of sku) if (t.kind === "colour") name.colours.push(t.value);
  if (name.sizes.length === 0) for (const t of sku) if (t.kind === "size") name.sizes.push(t.value);
  return { sku, name };
}

// ---------------------------------------------------------------------------
// Certain rules

function sameTokens(a: readonly SkuToken[], b: readonly SkuToken[]): boolean {
  return a.length === b.length && a.every((token, i) => sameSkuToken(token, b[i]));
}

/** The variant a SKU suffix names: its own code, its colour or its size. */
function suffixNamesVariant(suffix: readonly SkuToken[], candidate: Candidate): boolean {
  if (suffix.length === 0 || !candidate.entry.variant) return false;
  const own = candidate.sku.slice(candidate.productSku.length);
  if (sameTokens(suffix, own)) return true;
  if (suffix.length !== 1) return false;
  const [token] = suffix;
  if (candidate.variantColour) return sameSkuToken(token, { kind: "colour", value: candidate.variantColour });
  if (!candidate.variantSize) return false;
  if (token.kind === "number") return String(token.quantity.value) === candidate.variantSize;
  return sameSkuToken(token, { kind: "size", value: candidate.variantSize });
}

/** The platform's SKU, restated ("50ML" for "50") or with its variant's colour or size after it. */
function skuFamily(line: LineView, candidate: Candidate): boolean {
  if (line.sku.length === 0) return false;
  if (!candidate.entry.variant) return !candidate.hasVariants && sameTokens(line.sku, candidate.sku);
  const stem = candidate.productSku;
  if (stem.length === 0 || line.sku.length <= stem.length) return false;
  return sameTokens(line.sku.slice(0, stem.length), stem) && suffixNamesVariant(line.sku.slice(stem.length), candidate);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x)) && b.every((x) => a.includes(x));
}

function sameQuantities(a: readonly Quantity[], b: readonly Quantity[]): boolean {
  return (
    a.length === b.length &&
    a.every((q) => b.some((r) => sameQuantity(q, r))) &&
    b.every((q) => a.some((r) => sameQuantity(q, r)))
  );
}

/** The platform's name word for word: the same products words, quantities, model, colour and size. */
function sameName(line: LineView, candidate: Candidate): boolean {
  const a = line.name;
  const b = candidate.name;
  if (a.words.length === 0 || candidate.hasVariants) return false;
  return (
    sameSet(a.words, b.words) &&
    sameSet(a.models, b.models) &&
    sameSet(a.colours, b.colours) &&
    sameSet(a.sizes, b.sizes) &&
    sameQuantities(a.quantities, b.quantities)
  );
}

// ---------------------------------------------------------------------------
// Likely: shared names, nothing contradicted

/** What tells the line's product from the candidate's, when anything does. */
function contradicts(line: LineView, candidate: Candidate): boolean {
  const a = line.name;
  const b = candidate.name;
  // Another size or quantity (250 ml is not 50 ml; 10000 mAh is not 20000).
  if (a.quantities.some((q) => b.quantities.some((r) => conflictingQuantity(q, r)))) return true;
  // Another model (X9, P5, 4D, T500).
  if (a.models.length > 0 && b.models.length > 0 && !a.models.some((m) => b.models.includes(m))) return true;
  // Another colour or size than the variant, or one the product does not come in.
  const colours = candidate.variantColour ? [candidate.variantColour] : [...candidate.variantColours];
  if (colours.length > 0 && a.colours.some((c) => !colours.includes(c))) return true;
  if (!candidate.hasVariants && candidate.variantColour === undefined && a.colours.length > 0 && b.colours.length > 0)
    if (!a.colours.some((c) => b.colours.includes(c))) return true;
  const sizes = candidate.variantSize ? [candidate.variantSize] : [...candidate.variantSizes];
  if (sizes.length > 0 && a.sizes.some((s) => !sizes.includes(s))) return true;
  // Another audience, a pack, a pro or mini model: on the line but not the platform's, or the reverse for packs and models.
  for (const word of a.words) if (isDistinguishing(word) && !b.words.includes(word)) return true;
  for (const word of b.words)
    if (isDistinguishing(word) && (word === "lot" || word === "pro") && !a.words.includes(word)) return true;
  // Each side names something the other does not: two products of a kind (argan and nigella oil).
  const onlyLine = a.words.filter((w) => !b.words.includes(w));
  const onlyPlatform = b.words.filter((w) => !a.words.includes(w));
  if (onlyLine.length > 0 && onlyPlatform.length > 0) return true;
  // A SKU that names another number where the platform's has one (ARG-OIL-30 and ARG-OIL-50).
  return skuNumberConflict(line.sku, candidate.sku);
}

function skuNumberConflict(a: readonly SkuToken[], b: readonly SkuToken[]): boolean {
  if (a.length === 0 || a.length !== b.length) return false;
  let sameWords = true;
  let conflict = false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.kind === "number" && y.kind === "number") {
      if (!sameQuantity(x.quantity, y.quantity)) conflict = true;
    } else if (!sameSkuToken(x, y)) sameWords = false;
  }
  return sameWords && conflict;
}

/** Shared share of the two names, numbers and models counted as words. */
function overlap(line: LineView, candidate: Candidate): number {
  const a = line.name;
  const b = candidate.name;
  const shared =
    a.words.filter((w) => b.words.includes(w)).length +
    a.models.filter((m) => b.models.includes(m)).length +
    a.quantities.filter((q) => b.quantities.some((r) => sameQuantity(q, r))).length;
  const total =
    a.words.length + a.models.length + a.quantities.length + b.words.length + b.models.length + b.quantities.length;
  return total === 0 ? 0 : (2 * shared) / total;
}

/** A SKU whose words are the platform's with a suffix, or a prefix of them: a family, not a proof. */
function skuKinship(line: LineView, candidate: Candidate): number {
  const stem = candidate.entry.variant ? candidate.productSku : candidate.sku;
  if (stem.length === 0 || line.sku.length < stem.length) return 0;
  return sameTokens(line.sku.slice(0, stem.length), stem) ? 1 : 0;
}

function suggestionOf(
  candidate: Candidate,
  confidence: "certain" | "likely",
  score: number,
  why: ProductReason,
): ProductSuggestion {
  const { entry } = candidate;
  return {
    kind: "product",
    productId: entry.product.id,
    sku: entry.sku,
    name: entry.variant?.name ? `${entry.product.name} (${entry.variant.name})` : entry.product.name,
    score: roundScore(score),
    confidence,
    why,
  };
}

function candidatesFor(index: ProposalIndex, line: LineView): number[] {
  const ids = new Set<number>();
  const first = line.sku[0];
  const keys = [...line.name.words, ...line.name.models, ...(first?.kind === "word" ? [`sku:${first.value}`] : [])];
  for (const key of keys) for (const id of index.byConcept.get(key) ?? []) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

function compute(index: ProposalIndex, line: LineView, confirmed: CatalogueEntry | undefined): ProductSuggestion[] {
  const ids = candidatesFor(index, line);
  const certain: Candidate[] = [];
  let proof: ProductReason = "confirmed";
  if (confirmed) {
    const candidate = index.candidates.find((c) => c.entry.sku === confirmed.sku);
    if (candidate) certain.push(candidate);
  }
  if (certain.length === 0) {
    const family = ids.map((id) => index.candidates[id]).filter((c) => skuFamily(line, c));
    const named = family.length === 0 ? ids.map((id) => index.candidates[id]).filter((c) => sameName(line, c)) : [];
    const proven = family.length > 0 ? family : named;
    proof = family.length > 0 ? "sku" : "name";
    // Two items fit the rule: neither is proven.
    if (proven.length === 1) certain.push(proven[0]);
  }
  const likely: { candidate: Candidate; score: number; why: ProductReason }[] = [];
  for (const id of ids) {
    const candidate = index.candidates[id];
    // A product sold in variants is proposed as one of its variants, never as a whole.
    if (candidate.hasVariants || certain.includes(candidate) || contradicts(line, candidate)) continue;
    const shared = line.name.words.some((w) => candidate.name.words.includes(w)) || skuKinship(line, candidate) > 0;
    if (!shared) continue;
    const byName = overlap(line, candidate);
    const bySku = skuKinship(line, candidate) * 0.75;
    const score = Math.max(byName, bySku);
    if (score >= LIKELY_FLOOR) likely.push({ candidate, score, why: byName >= bySku ? "shared_words" : "sku_family" });
  }
  likely.sort((a, b) => b.score - a.score || (a.candidate.entry.sku < b.candidate.entry.sku ? -1 : 1));
  const out = certain.map((c) => suggestionOf(c, "certain", 1, proof));
  // A variant listed with its product's SKU is one item: proposed once.
  const seen = new Set(out.map((s) => s.sku));
  for (const { candidate, score, why } of likely) {
    if (out.length >= LIKELY_COUNT + certain.length) break;
    if (seen.has(candidate.entry.sku)) continue;
    seen.add(candidate.entry.sku);
    out.push(suggestionOf(candidate, "likely", score, why));
  }
  return out;
}

/**
 * The platform items an unknown line may be: the certain one first (at most one),
 * then up to three likely ones, best first. `confirmed` is the item a mapping of the
 * same SKU written another way already names.
 */
export function productProposals(
  catalogue: CatalogueIndex,
  line: Pick<ShopLineItem, "sku" | "name" | "title" | "variantTitle">,
  confirmed?: CatalogueEntry,
): ProductSuggestion[] {
  const index = proposalIndexFor(catalogue);
  const key = `${line.sku ?? ""}\u0000${line.name ?? ""}\u0000${line.title ?? ""}\u0000${line.variantTitle ?? ""}\u0000${confirmed?.sku ?? ""}`;
  const known = index.memo.get(key);
  if (known) return known.map((s) => ({ ...s }));
  const out = compute(index, lineView(line), confirmed);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: bounds the memo; clearing it early or never changes no proposal
  if (index.memo.size >= MEMO_SIZE) index.memo.clear();
  index.memo.set(key, out);
  return out.map((s) => ({ ...s }));
}
