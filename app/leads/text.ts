/**
 * Text folding shared by phones, cities, gateways and product names: customers write in
 * French, Arabic, Darija and English, with or without accents, with Arabic-Indic digits.
 */

/** Arabic-Indic (٠-٩) and Eastern Arabic / Persian (۰-۹) digits to ASCII. */
export function foldDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => {
    const code = d.charCodeAt(0);
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });
}

// Latin accents, Arabic short vowels / hamza carriers (after NFD) and tatweel.
const MARKS = /[\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640]/g;
const LETTER_VARIANTS: Record<string, string> = {
  "\u0671": "\u0627", // ٱ -> ا
  "\u0629": "\u0647", // ة -> ه
  "\u0649": "\u064a", // ى -> ي
  "\u06cc": "\u064a", // ی -> ي
  "\u0621": "", // ء (often dropped: البيضاء / البيضا)
  "\u06af": "\u0643", // گ -> ك
  "\u06ad": "\u0643", // ڭ -> ك
  "\u06a9": "\u0643", // ک -> ك
  "\u0763": "\u0643", // ݣ (Moroccan gaf) -> ك
  "\u06a4": "\u0641", // ڤ -> ف
  "\u067e": "\u0628", // پ -> ب
  "\u0153": "oe", // œ
  "\u00e6": "ae", // æ
  "\u00df": "ss", // ß
};
const VARIANT_PATTERN = new RegExp(`[${Object.keys(LETTER_VARIANTS).join("")}]`, "g");

/**
 * Lower case, no accents, Arabic letter variants unified, digits in ASCII. Keeps
 * punctuation: callers decide what a separator is.
 */
export function foldText(text: string): string {
  return foldDigits(text)
    .toLowerCase()
    .normalize("NFD")
    .replace(MARKS, "")
    .replace(VARIANT_PATTERN, (c) => LETTER_VARIANTS[c] ?? c);
}

const APOSTROPHES = new Set(["'", "\u2019", "\u2018", "`", "\u00b4"]);
// Separators beyond ASCII: Arabic comma/semicolon/question mark, quotes, dashes, spaces.
const UNICODE_SEPARATORS = new Set([
  "\u060c",
  "\u061b",
  "\u061f",
  "\u066a",
  "\u066b",
  "\u066c",
  "\u06d4",
  "\u00a0",
  "\u00ab",
  "\u00bb",
  "\u00b7",
  "\u00b4",
  "\u00b0",
  "\u00ba",
  "\u2013",
  "\u2014",
  "\u2026",
  "\u2022",
  "\u201c",
  "\u201d",
  "\u201e",
  "\u2039",
  "\u203a",
  "\u2009",
  "\u200b",
  "\u200c",
  "\u200d",
  "\u200e",
  "\u200f",
  "\u202f",
  "\u3000",
  "\ufeff",
]);

function isWordChar(c: string): boolean {
  const code = c.charCodeAt(0);
  if (code < 0x80) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return !UNICODE_SEPARATORS.has(c) && !(code >= 0x2000 && code <= 0x206f) && !(code >= 0xd800 && code <= 0xdfff);
}

/**
 * Words of a folded text: apostrophes inside a word are dropped ("m'diq" -> "mdiq"), a
 * French elision is removed ("d'agadir" -> "agadir"), everything else separates.
 * A hand-written scanner: this runs for every city field and must stay cheap.
 */
export function words(folded: string): string[] {
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < folded.length; i++) {
    const c = folded[i];
    if (isWordChar(c)) {
      current += c;
    } else if (APOSTROPHES.has(c) && current !== "" && i + 1 < folded.length && isWordChar(folded[i + 1])) {
      // "d'" and "l'" at the start of a word are French elisions; elsewhere the apostrophe joins.
      if (current === "d" || current === "l") current = "";
    } else if (current !== "") {
      out.push(current);
      current = "";
    }
  }
  if (current !== "") out.push(current);
  return out;
}

/** "marrakech" -> "marakech": customers double and undouble letters freely. */
export function collapseRepeats(text: string): string {
  let out = "";
  // Stryker disable next-line StringLiteral: equivalent, any start value other than a single character lets the first one through
  let previous = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== previous) out += c;
    previous = c;
  }
  return out;
}

/** Folded words joined by single spaces: for phrase matching ("Cash on Delivery (COD)"). */
export function phrase(text: string): string {
  return words(foldText(text)).join(" ");
}
