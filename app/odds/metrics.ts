/**
 * How good probabilities are: the Brier score (mean squared error of the
 * probability against what happened, lower is better), the AUC (the chance a
 * delivered order is scored above a failed one, 0.5 is a coin) and the
 * reliability table (by decile of the score: predicted against observed). Pure.
 */

export interface Scored {
  probability: number;
  delivered: boolean;
}

export function brierScore(rows: readonly Scored[]): number {
  if (rows.length === 0) return NaN;
  let sum = 0;
  for (const r of rows) sum += (r.probability - (r.delivered ? 1 : 0)) ** 2;
  return sum / rows.length;
}

/** Area under the ROC curve by ranks (ties count half): Mann-Whitney's U over the pairs. */
export function auc(rows: readonly Scored[]): number {
  const sorted = [...rows].sort((a, b) => a.probability - b.probability);
  let positives = 0;
  let rankSum = 0;
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j < sorted.length && sorted[j].probability === sorted[i].probability) j++;
    const midRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) {
      if (sorted[k].delivered) {
        positives += 1;
        rankSum += midRank;
      }
    }
    i = j;
  }
  const negatives = sorted.length - positives;
  if (positives === 0 || negatives === 0) return NaN;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

export interface ReliabilityBin {
  /** 1 to 10, lowest scores first. */
  decile: number;
  orders: number;
  predicted: number;
  observed: number;
}

/** Orders in ten equal groups by score; each group's mean probability against its delivered share. */
export function reliabilityByDecile(rows: readonly Scored[]): ReliabilityBin[] {
  const sorted = [...rows].sort((a, b) => a.probability - b.probability);
  const bins: ReliabilityBin[] = [];
  for (let d = 0; d < 10; d++) {
    const slice = sorted.slice(Math.floor((d * sorted.length) / 10), Math.floor(((d + 1) * sorted.length) / 10));
    if (slice.length === 0) continue;
    bins.push({
      decile: d + 1,
      orders: slice.length,
      predicted: slice.reduce((s, r) => s + r.probability, 0) / slice.length,
      observed: slice.filter((r) => r.delivered).length / slice.length,
    });
  }
  return bins;
}
