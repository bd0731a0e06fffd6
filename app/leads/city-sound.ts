/**
 * The sound of a city spelling: the key two transliterations of one name share.
 * Moroccan names reach us through French ("Tétouan"), Spanish ("Tetuán"), English,
 * Darija typed on a phone ("Titwan", "Lqnitra") and Arabic with letters customers
 * swap (ط/ت, ص/س, ض/ظ). The key keeps every consonant and where vowels stand,
 * not which vowel: "Tetwane", "Titwan" and "Tetouan" meet; "Tamri" and "Témara",
 * "Goulmima" and "Guelmim" do not.
 */

const ARABIC = /[\u0600-\u06ff]/;

// Longest first: each is read before its parts.
const LATIN_DIGRAPHS: readonly [RegExp, string][] = [
  [/sch/g, "x"],
  [/ch|sh/g, "x"],
  [/kh/g, "K"],
  [/gh/g, "G"],
  [/dj/g, "j"],
  [/ph/g, "f"],
  [/th/g, "t"],
  [/dh/g, "d"],
  [/ck/g, "k"],
  [/qu/g, "k"],
  [/q/g, "k"],
  [/c(?=[eiy])/g, "s"],
  [/c/g, "k"],
  [/gu(?=[eiy])/g, "g"],
  [/ou|oo|o/g, "u"],
  // "ou" and "w" before a vowel are the consonant w ("Soualem" is "Swalem", not "Salam").
  [/u(?=[aei])/g, "w"],
  [/w(?![aeiu])/g, "u"],
  [/y/g, "i"],
  // Darija's digits for Arabic letters: 3 (ع), 7 (ح), 9 (ق), 2 (ء).
  [/3|2/g, "a"],
  [/7/g, "h"],
  [/9/g, "k"],
];

function collapse(text: string): string {
  let out = "";
  for (const c of text) if (c !== out[out.length - 1]) out += c;
  return out;
}

function latinSound(key: string): string {
  // A Darija article glued to the name ("Lqnitra", "Lkhmissat"): the name is what follows.
  let text = key.length > 4 && /^l[bcdfghjkmnpqrstvxz]/.test(key) ? key.slice(1) : key;
  for (const [pattern, to] of LATIN_DIGRAPHS) text = text.replace(pattern, to);
  // A final vowel counts, mute e included: "Goulmime" may be Goulmima as much as Guelmim.
  return collapse(text.replace(/[aeiu]+/g, "a"));
}

const ARABIC_SWAPS: Record<string, string> = {
  "\u0637": "\u062a", // ط -> ت
  "\u062b": "\u062a", // ث -> ت
  "\u0635": "\u0633", // ص -> س
  "\u0636": "\u062f", // ض -> د
  "\u0638": "\u062f", // ظ -> د
  "\u0630": "\u062f", // ذ -> د
  "\u0642": "\u0643", // ق -> ك
  "\u063a": "\u0643", // غ -> ك (أغادير / أكادير)
};

function arabicSound(key: string): string {
  let text = "";
  for (const c of key) text += ARABIC_SWAPS[c] ?? c;
  // A final ه (ة folded) and ا are one sound ("تمارة", "تمارا"); an alif inside a word is often left out.
  text = text.replace(/\u0647$/, "\u0627");
  if (text.length > 2) text = text[0] + text.slice(1, -1).replace(/\u0627/g, "") + text[text.length - 1];
  return collapse(text);
}

/** The sound key of a city key (normalizeCityKey's output); "" for nothing. */
export function soundKey(cityKey: string): string {
  if (!cityKey) return "";
  return ARABIC.test(cityKey) ? arabicSound(cityKey) : latinSound(cityKey);
}

/** The consonants alone: a weaker kinship ("Slé" and "Salé"), never a proof. */
export function consonantKey(cityKey: string): string {
  const sound = soundKey(cityKey);
  return collapse(ARABIC.test(sound) ? sound.replace(/[\u0648\u064a]/g, "") : sound.replace(/a/g, ""));
}
