/** MAD amounts as integer centimes, so sums never drift; the wire form is "123.45". */
export const DECIMAL_PATTERN = /^\d+\.\d{2}$/;

export function toCents(amount: string): number {
  if (!DECIMAL_PATTERN.test(amount)) throw new RangeError(`not a two-decimal amount: ${amount}`);
  const [units, cents] = amount.split(".");
  return Number(units) * 100 + Number(cents);
}

export function fromCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
