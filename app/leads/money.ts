/**
 * Amounts in integer cents: Shopify and the platform write decimal strings, and a float
 * sum of prices is how "149.00" turns into "148.99999".
 */

/** Largest amount the platform's decimal format can carry (9 digits before the point). */
export const MAX_AMOUNT_CENTS = 999_999_999_99;

/**
 * Cents of a non-negative decimal ("149", "149.5", "149.00", 149.5); more than two
 * decimals are rounded half up. Undefined for anything else.
 */
export function toCents(amount: unknown): number | undefined {
  let text: string;
  if (typeof amount === "number") {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, "-0.010" or "NaN" would fail the digits-only pattern below too; this says what is refused
    if (!Number.isFinite(amount) || amount < 0) return undefined;
    text = amount.toFixed(3);
  } else if (typeof amount === "string") {
    text = amount.trim();
    // Stryker disable next-line BlockStatement: equivalent, without it the pattern below refuses the missing text too
  } else {
    return undefined;
  }
  const match = /^(\d{1,15})(?:\.(\d*))?$/.exec(text);
  if (!match) return undefined;
  const fraction = (match[2] ?? "").padEnd(3, "0");
  const value = Number(match[1]) * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** "149.00" from 14900. */
export function formatCents(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  return `${whole}.${rest < 10 ? "0" : ""}${rest}`;
}
