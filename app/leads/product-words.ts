/**
 * The words of a product as the matcher compares them: a Shopify line's SKU and title
 * against the platform's SKU and name, written by different people in French, Arabic,
 * Darija (in either script) and English.
 *
 * A SKU is read as tokens (numbers with their unit, size and colour words in one
 * spelling); a title as concepts (each word translated to one French word when the
 * lexicon knows it). Quantities, models ("X8", "3D", "P3"), colours, sizes and the
 * words that make another product ("pro", "enfant", "lot") are kept apart: they
 * decide that two similar names are not the same product.
 */
import { foldText, words } from "./text";

/** A quantity: its value in the unit's base (ml, g, mm, W, mAh, pieces), or a bare number. */
export interface Quantity {
  value: number;
  /** "volume", "mass", "length", "power", "charge", "count", "size", "inch"; "" for a bare number. */
  dimension: string;
  /** The number as written, before the unit's factor ("1" in "1 L"). */
  raw: number;
}

export type SkuToken =
  | { kind: "number"; quantity: Quantity }
  | { kind: "colour"; value: string }
  | { kind: "size"; value: string }
  | { kind: "word"; value: string };

const UNITS: Record<string, { dimension: string; factor: number }> = {
  ml: { dimension: "volume", factor: 1 },
  cl: { dimension: "volume", factor: 10 },
  l: { dimension: "volume", factor: 1000 },
  lt: { dimension: "volume", factor: 1000 },
  ltr: { dimension: "volume", factor: 1000 },
  litre: { dimension: "volume", factor: 1000 },
  litres: { dimension: "volume", factor: 1000 },
  liter: { dimension: "volume", factor: 1000 },
  mg: { dimension: "mass", factor: 0.001 },
  g: { dimension: "mass", factor: 1 },
  gr: { dimension: "mass", factor: 1 },
  grs: { dimension: "mass", factor: 1 },
  gramme: { dimension: "mass", factor: 1 },
  grammes: { dimension: "mass", factor: 1 },
  kg: { dimension: "mass", factor: 1000 },
  mm: { dimension: "length", factor: 1 },
  cm: { dimension: "length", factor: 10 },
  m: { dimension: "length", factor: 1000 },
  mt: { dimension: "length", factor: 1000 },
  mtr: { dimension: "length", factor: 1000 },
  metre: { dimension: "length", factor: 1000 },
  metres: { dimension: "length", factor: 1000 },
  w: { dimension: "power", factor: 1 },
  watt: { dimension: "power", factor: 1 },
  watts: { dimension: "power", factor: 1 },
  mah: { dimension: "charge", factor: 1 },
  pcs: { dimension: "count", factor: 1 },
  pc: { dimension: "count", factor: 1 },
  pieces: { dimension: "count", factor: 1 },
  x: { dimension: "count", factor: 1 },
  in: { dimension: "inch", factor: 1 },
  inch: { dimension: "inch", factor: 1 },
  pouce: { dimension: "inch", factor: 1 },
  pouces: { dimension: "inch", factor: 1 },
  // Arabic units, after folding.
  "\u0645\u0644": { dimension: "volume", factor: 1 }, // مل
  "\u0644\u062a\u0631": { dimension: "volume", factor: 1000 }, // لتر
  "\u063a": { dimension: "mass", factor: 1 }, // غ
  "\u063a\u0631\u0627\u0645": { dimension: "mass", factor: 1 }, // غرام
  "\u0643\u063a": { dimension: "mass", factor: 1000 }, // كغ
  "\u0633\u0645": { dimension: "length", factor: 10 }, // سم
  "\u0648\u0627\u0637": { dimension: "power", factor: 1 }, // واط
  "\u0628\u0648\u0635\u0647": { dimension: "inch", factor: 1 }, // بوصة
};

/** Words before a size ("T40", "P 41", "EU38", "taille L"). */
const SIZE_PREFIXES = new Set(["t", "p", "eu", "taille", "pointure", "size", "sz"]);

const SIZE_WORDS: Record<string, string> = {
  xs: "xs",
  s: "s",
  m: "m",
  l: "l",
  xl: "xl",
  xxl: "xxl",
  xxxl: "xxxl",
  "2xl": "xxl",
  "3xl": "xxxl",
  small: "s",
  medium: "m",
  large: "l",
  xlarge: "xl",
  xxlarge: "xxl",
};

/** Colour words in French, English, Darija and Arabic (folded), and the shop codes merchants use. */
const COLOURS: Record<string, string> = {};
for (const [colour, spellings] of Object.entries({
  black: [
    "noir",
    "noire",
    "noirs",
    "black",
    "blk",
    "bk",
    "nr",
    "k7al",
    "khal",
    "kahla",
    "كحل",
    "كحلة",
    "اسود",
    "سوداء",
    "سودا",
  ],
  white: ["blanc", "blanche", "blancs", "white", "wht", "wh", "byed", "bayda", "bida", "ابيض", "بيضاء", "بيضا"],
  silver: ["argent", "argente", "argentee", "silver", "slv", "sv", "gris", "grey", "gray", "فضي", "فضية"],
  pink: ["rose", "pink", "pnk", "pk", "rouz", "وردي", "وردية"],
  yellow: ["jaune", "yellow", "yel", "yl", "sfer", "sfar", "صفراء", "اصفر", "صفرا"],
  red: ["rouge", "red", "rd", "hmer", "hamra", "احمر", "حمراء"],
  blue: ["bleu", "bleue", "blue", "blu", "zreq", "zer9a", "ازرق", "زرقاء"],
  green: ["vert", "verte", "green", "grn", "khder", "اخضر", "خضراء"],
  brown: ["marron", "brun", "brown", "brn", "qahwi", "بني"],
  gold: ["or", "dore", "doree", "gold", "gld", "ذهبي", "ذهبية"],
  beige: ["beige", "bej"],
})) {
  for (const spelling of spellings) COLOURS[foldText(spelling)] = colour;
}

/** The colour a word names, in one spelling; undefined when it names none. */
export function colourOf(word: string): string | undefined {
  return COLOURS[word];
}

/** The size a word or a run of words names ("large", "taille xl", "40", "eu 38"). */
export function sizeOf(text: string): string | undefined {
  const parts = words(foldText(text)).filter((w) => !SIZE_PREFIXES.has(w));
  if (parts.length !== 1) return undefined;
  const [word] = parts;
  if (/^\d+$/.test(word)) return String(Number(word));
  return SIZE_WORDS[word];
}

const NUMBER_WITH_UNIT = /^(\d+(?:[.,]\d+)?)(k?)([a-z\u0600-\u06ff]*)$/;

function quantityOf(value: number, unit: string, raw: number): Quantity | undefined {
  if (!unit) return { value, dimension: "", raw };
  const known = UNITS[unit];
  if (!known) return undefined;
  return { value: Math.round(value * known.factor * 1000) / 1000, dimension: known.dimension, raw };
}

/** "50", "50ml", "1.5l", "20k", "x6", "6pcs": a quantity; undefined for a model name ("3d", "x8" stays one). */
export function parseQuantity(token: string, unitAfter?: string): Quantity | undefined {
  const count = /^x(\d+)$/.exec(token);
  // "x6" is six pieces; "x8" in "SMW-X8" reads the same on both sides, so it compares alike.
  if (count) return { value: Number(count[1]), dimension: "count", raw: Number(count[1]) };
  const match = NUMBER_WITH_UNIT.exec(token);
  if (!match) return undefined;
  const raw = Number(match[1].replace(",", "."));
  const value = match[2] ? raw * 1000 : raw;
  const unit = match[3] || unitAfter || "";
  return quantityOf(value, unit, raw);
}

/** Two quantities that say the same amount: a bare number matches its own digits with any unit. */
export function sameQuantity(a: Quantity, b: Quantity): boolean {
  if (a.dimension && b.dimension) {
    if (a.dimension === b.dimension) return a.value === b.value;
    // A size and a bare count read alike ("T40" and "40"); other dimensions never do.
    return false;
  }
  return a.value === b.value || a.raw === b.raw || a.value === b.raw || a.raw === b.value;
}

/** Two quantities of the same dimension that differ: another size of the product. */
export function conflictingQuantity(a: Quantity, b: Quantity): boolean {
  return a.dimension !== "" && a.dimension === b.dimension && a.value !== b.value;
}

/**
 * A SKU as tokens: split on anything but letters and digits; a number takes the unit
 * written after it ("50-ML"), a size prefix its size ("T-42", "EU38", "TL"); colours and
 * sizes are spelt one way.
 */
export function skuTokens(sku: string): SkuToken[] {
  // Decimals stay one token ("1.5L"); every other dot, underscore or slash separates.
  const parts = words(
    foldText(sku)
      .replace(/(\d)[.,](\d)/g, "$1\u02d9$2")
      .replace(/[_./\\]/g, " "),
  ).map((w) => w.replace(/\u02d9/g, "."));
  const out: SkuToken[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const next = parts[i + 1];
    const nextIsUnit = next !== undefined && UNITS[next] !== undefined && next !== "x";
    const quantity = parseQuantity(part, nextIsUnit && /^\d/.test(part) && !/[a-z]$/.test(part) ? next : undefined);
    if (quantity) {
      out.push({ kind: "number", quantity });
      if (nextIsUnit && /^\d+(?:[.,]\d+)?k?$/.test(part)) i++;
      continue;
    }
    const sized = /^(t|p|eu|sz)(\d{2}|xs|s|m|l|xl|xxl)$/.exec(part) ?? /^(\d{2})(eu)$/.exec(part);
    if (sized) {
      const value = /^\d/.test(sized[1]) ? sized[1] : sized[2];
      out.push(
        /^\d+$/.test(value)
          ? { kind: "number", quantity: { value: Number(value), dimension: "size", raw: Number(value) } }
          : { kind: "size", value: SIZE_WORDS[value] },
      );
      continue;
    }
    if (SIZE_PREFIXES.has(part) && next !== undefined && (/^\d{2}$/.test(next) || SIZE_WORDS[next])) {
      out.push(
        /^\d{2}$/.test(next)
          ? { kind: "number", quantity: { value: Number(next), dimension: "size", raw: Number(next) } }
          : { kind: "size", value: SIZE_WORDS[next] },
      );
      i++;
      continue;
    }
    const colour = COLOURS[part];
    if (colour && part.length > 2) {
      out.push({ kind: "colour", value: colour });
      continue;
    }
    // "XL", "LARGE" are sizes; "M" alone may be a word of the SKU ("DJELLABA-M"): compared as either.
    if (SIZE_WORDS[part] && part.length > 1) {
      out.push({ kind: "size", value: SIZE_WORDS[part] });
      continue;
    }
    out.push({ kind: "word", value: part });
  }
  return out;
}

/** Two SKU tokens that say the same thing. Shop codes ("BLK") compare by their colour. */
export function sameSkuToken(a: SkuToken, b: SkuToken): boolean {
  if (a.kind === "number" && b.kind === "number") return sameQuantity(a.quantity, b.quantity);
  const colourA = a.kind === "colour" ? a.value : a.kind === "word" ? COLOURS[a.value] : undefined;
  const colourB = b.kind === "colour" ? b.value : b.kind === "word" ? COLOURS[b.value] : undefined;
  if (colourA && colourB) return colourA === colourB;
  const sizeA = a.kind === "size" ? a.value : a.kind === "word" ? SIZE_WORDS[a.value] : undefined;
  const sizeB = b.kind === "size" ? b.value : b.kind === "word" ? SIZE_WORDS[b.value] : undefined;
  if (sizeA && sizeB) return sizeA === sizeB;
  return a.kind === "word" && b.kind === "word" && a.value === b.value;
}

// ---------------------------------------------------------------------------
// Names

/**
 * Words translated to one French concept. Written from the words Moroccan shops and
 * customers use for the products COD platforms carry; a word not listed is kept as it is.
 */
const LEXICON: Record<string, string> = {};
for (const [concept, spellings] of Object.entries({
  huile: ["huile", "huiles", "zit", "zite", "oil", "زيت", "الزيت"],
  argan: ["argan", "argane", "اركان", "الاركان", "ارگان"],
  olive: ["olive", "olives", "zitoun", "zitoune", "zaytoun", "زيتون", "الزيتون"],
  cosmetique: ["cosmetique", "cosmetic", "cosmetics", "تجميلي", "التجميلي", "تجميل"],
  alimentaire: ["alimentaire", "culinaire", "food", "culinary", "غذائي", "الغذائي"],
  amlou: ["amlou", "amlu", "املو", "أملو"],
  amande: ["amande", "amandes", "almond", "almonds", "louz", "لوز"],
  savon: ["savon", "savons", "soap", "saboun", "sabon", "صابون", "الصابون"],
  eucalyptus: ["eucalyptus", "calyptus", "kalitous", "كاليبتوس", "الكاليبتوس", "بالكاليبتوس"],
  ghassoul: ["ghassoul", "ghasoul", "rhassoul", "rassoul", "غاسول", "الغاسول"],
  eau: ["eau", "water", "ma", "lma", "ماء", "الماء"],
  rose: ["rose", "roses", "ward", "lward", "ورد", "الورد"],
  montre: ["montre", "montres", "watch", "watches", "smartwatch", "saa", "magana", "ساعه", "الساعه"],
  connectee: ["connectee", "connecte", "connectees", "smart", "intelligente", "intelligent", "ذكيه", "الذكيه"],
  ecouteur: [
    "ecouteur",
    "ecouteurs",
    "earbuds",
    "earbud",
    "earphones",
    "earphone",
    "airpods",
    "kitman",
    "سماعات",
    "سماعه",
  ],
  sansfil: ["sansfil", "wireless", "bluetooth", "لاسلكيه", "لاسلكي", "بلوتوث"],
  batterie: ["batterie", "battery", "powerbank", "باور", "بطاريه"],
  externe: ["externe", "external", "بانك"],
  ruban: ["ruban", "bande", "strip", "شريط"],
  led: ["led", "lid", "ليد"],
  telecommande: ["telecommande", "remote", "تحكم"],
  seche: ["seche", "sechoir", "sechoirs", "dryer", "sechwar", "سشوار", "مجفف"],
  cheveux: ["cheveux", "hair", "cheveu", "شعر", "الشعر"],
  ionique: ["ionique", "ionic"],
  rasoir: ["rasoir", "rasoirs", "shaver", "razor", "حلاقه", "الحلاقه"],
  electrique: ["electrique", "electric", "كهربائي", "كهربائيه"],
  sandale: ["sandale", "sandales", "sandal", "sandals", "sandalia", "صندل", "صنداله", "نعاله"],
  cuir: ["cuir", "leather", "jeld", "جلد", "الجلد"],
  djellaba: ["djellaba", "djellabas", "jellaba", "jellabiya", "jlaba", "jelaba", "جلابه", "الجلابه"],
  caftan: ["caftan", "kaftan", "قفطان"],
  femme: ["femme", "femmes", "women", "woman", "lady", "ladies", "nsa", "نسائيه", "نسائي", "نساء"],
  homme: ["homme", "hommes", "men", "man", "rjal", "رجالي", "رجال"],
  enfant: ["enfant", "enfants", "kids", "kid", "children", "child", "drari", "اطفال", "للاطفال", "الاطفال"],
  brodee: ["brodee", "brode", "brodees", "embroidered", "mtarza", "مطرزه", "مطرز"],
  babouche: ["babouche", "babouches", "slippers", "belgha", "balgha", "belgh", "بلغه", "البلغه"],
  classique: ["classique", "classiques", "classic"],
  tajine: ["tajine", "tajines", "tagine", "tajin", "طاجين", "الطاجين"],
  terre: ["terre", "clay", "fekhar", "فخار"],
  cuite: ["cuite"],
  theiere: ["theiere", "theieres", "teapot", "berrad", "براد"],
  inox: ["inox", "stainless", "ستانلس", "انوكس"],
  verre: ["verre", "verres", "glass", "glasses", "kissan", "kas", "كيسان", "كاس", "كؤوس"],
  the: ["the", "tea", "atay", "atai", "اتاي", "شاي"],
  decore: ["decore", "decores", "decoree", "decorees", "decorated", "mzwqin", "mzawqin", "مزوقين", "مزخرف"],
  aspirateur: ["aspirateur", "aspirateurs", "vacuum", "cleaner", "مكنسه", "شفاط"],
  voiture: ["voiture", "voitures", "car", "auto", "tomobil", "السياره", "سياره"],
  support: ["support", "holder", "حامل"],
  telephone: ["telephone", "phone", "tilifoun", "هاتف", "الهاتف", "تلفون"],
  magnetique: ["magnetique", "magnetic", "مغناطيسي", "مغناطيس"],
  tablette: ["tablette", "tablettes", "tablet", "tab", "تابليت", "لوحه"],
  parfum: ["parfum", "parfums", "perfume", "fragrance", "عطر", "العطر"],
  oud: ["oud", "3oud", "عود", "العود"],
  musc: ["musc", "musk", "mousk", "misk", "مسك", "المسك"],
  tahara: ["tahara", "الطهاره", "طهاره"],
  ceinture: ["ceinture", "ceintures", "belt", "حزام"],
  sudation: ["sudation", "sweat", "التعرق", "تعرق"],
  minceur: ["minceur", "slim", "amincissante", "amincissant", "تنحيف"],
  correcteur: ["correcteur", "corrector", "مصحح"],
  posture: ["posture", "الوضعيه", "وضعيه"],
  blender: ["blender", "mixeur", "خلاط"],
  portable: ["portable", "portatif", "محمول"],
  presse: ["presse", "press", "عصاره"],
  ail: ["ail", "garlic", "الثوم", "ثوم"],
  miel: ["miel", "honey", "3sel", "assel", "عسل"],
  euphorbe: ["euphorbe", "euphorbia", "dghmouss", "daghmous", "الدغموس", "دغموس"],
  safran: ["safran", "saffron", "zaafran", "za3fran", "زعفران"],
  coffret: ["coffret", "box", "gift", "علبه"],
  // Places in product names.
  taliouine: ["taliouine", "taliwin", "تاليوين"],
  atlas: ["atlas", "اطلس", "الاطلس"],
  kelaa: ["kelaa", "kalaa", "قلعه"],
  beaute: ["beaute", "beauty"],
  lot: ["lot", "pack", "packs", "bundle", "duo", "trio", "كوفري"],
  pro: ["pro", "ultra", "max", "plus", "mini", "lite"],
})) {
  for (const spelling of spellings) LEXICON[foldText(spelling)] = concept;
}

/**
 * Words that describe without naming a product: shared, they do not make two names one
 * product; unshared, they do not make them two.
 */
const GENERIC = new Set([
  "artisanal",
  "artisanale",
  "artisanaux",
  "traditionnel",
  "traditionnelle",
  "naturel",
  "naturelle",
  "natural",
  "bio",
  "organic",
  "pur",
  "pure",
  "original",
  "originale",
  "authentique",
  "marocain",
  "marocaine",
  "moroccan",
  "beldi",
  "beldia",
  "بلدي",
  "بلديه",
  "البلدي",
  "qualite",
  "luxe",
  "nouveau",
  "nouvelle",
  "new",
  "promo",
  "offre",
  "top",
  "best",
  "handmade",
  "fait",
  "main",
  "ville",
  "minceur",
]);

/** Words that never tell products apart. */
const STOP = new Set([
  "de",
  "d",
  "du",
  "des",
  "la",
  "le",
  "les",
  "l",
  "en",
  "a",
  "au",
  "aux",
  "et",
  "avec",
  "pour",
  "sans",
  "un",
  "une",
  "of",
  "with",
  "for",
  "and",
  "exclusif",
  "exclusive",
  "model",
  "modele",
  "ب",
  "و",
  "من",
  "مع",
]);

/** Concepts that make another product when only one side has them: another audience, a pack, a pro model. */
const DISTINGUISHING = new Set(["enfant", "homme", "femme", "lot", "pro", "sansfil"]);

export interface NameConcepts {
  /** Product concepts (translated), generic words left out. */
  words: string[];
  /** Generic words present. */
  generic: string[];
  quantities: Quantity[];
  /** Letters-and-digits names ("x8", "3d", "p3", "t500"). */
  models: string[];
  colours: string[];
  sizes: string[];
}

function stripArabicArticle(word: string): string {
  if (word.length > 4 && (word.startsWith("بال") || word.startsWith("لل")))
    return word.slice(word.startsWith("بال") ? 3 : 2);
  if (word.length > 3 && word.startsWith("ال")) return word.slice(2);
  return word;
}

function conceptOf(word: string): string {
  const known = LEXICON[word] ?? LEXICON[stripArabicArticle(word)];
  if (known) return known;
  // French plurals and feminines: "brodées" and "brodé" are one word.
  let stem = stripArabicArticle(word);
  if (/^[a-z]+$/.test(stem) && stem.length > 4) stem = stem.replace(/(es|s|x)$/, "").replace(/e$/, "");
  return stem;
}

const MODEL = /^(?=.*[a-z])(?=.*\d)[a-z0-9]{2,6}$/;

/**
 * A product title as concepts. "Sans fil" and "power bank" read as one word each;
 * "20 000" is one number; a unit after a number is its unit.
 */
export function nameConcepts(text: string): NameConcepts {
  const folded = foldText(text)
    .replace(/\bsans[\s-]+fil\b/g, "sansfil")
    .replace(/\bpower\s*bank\b/g, "powerbank")
    .replace(/(^|\s)(\d{1,3}) (\d{3})(?=\D|$)/g, "$1$2$3")
    .replace(/(\d)[.,](\d)/g, "$1\u02d9$2");
  const parts = words(folded.replace(/[_/\\()[\]+]/g, " ")).map((w) => w.replace(/\u02d9/g, "."));
  const out: NameConcepts = { words: [], generic: [], quantities: [], models: [], colours: [], sizes: [] };
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const next = parts[i + 1];
    // "X8" names a model and may count pieces ("verres x6"): it is both, read alike on both sides.
    if (/^x\d+$/.test(part)) out.models.push(part);
    if (/^\d/.test(part) || /^x\d+$/.test(part)) {
      const withUnit = next !== undefined && UNITS[next] !== undefined && /^\d+(?:\.\d+)?k?$/.test(part);
      const quantity = parseQuantity(part, withUnit ? next : undefined);
      if (quantity) {
        out.quantities.push(quantity);
        if (withUnit) i++;
        continue;
      }
    }
    // "M", "S" and "L" alone are words of a name; "XL", "2XL" are sizes.
    if (SIZE_WORDS[part] && part.length <= 4 && part !== "m" && part !== "s" && part !== "l") {
      out.sizes.push(SIZE_WORDS[part]);
      continue;
    }
    if (MODEL.test(part) && !UNITS[part.replace(/^\d+/, "")]) {
      out.models.push(part);
      continue;
    }
    if (STOP.has(part) || part.length === 0) continue;
    const colour = COLOURS[part];
    if (colour && part.length > 2 && colour !== "pink") {
      if (!out.colours.includes(colour)) out.colours.push(colour);
      continue;
    }
    if (GENERIC.has(part) || GENERIC.has(stripArabicArticle(part))) {
      out.generic.push(part);
      continue;
    }
    const concept = conceptOf(part);
    if (concept.length < 2) continue;
    if (!out.words.includes(concept)) out.words.push(concept);
  }
  return out;
}

export function isDistinguishing(concept: string): boolean {
  return DISTINGUISHING.has(concept);
}
