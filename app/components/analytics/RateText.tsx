/** A rate with the two counts it divides in its title (the tooltip), so no rate stands alone. */
import type { MessageKey } from "../../i18n";
import { useFormat, useT } from "../../i18n/react";
import type { Rate } from "../../analytics/report";
import { percent } from "./format";

export function RateText({ rate, of = "analytics.rate.title" }: { rate: Rate; of?: MessageKey }) {
  const t = useT();
  const format = useFormat();
  // Numbers, not text: the catalogue picks the plural form and writes them in the locale's format.
  const title = t(of, { part: rate.part, whole: rate.whole });
  return (
    <span title={title} data-part={rate.part} data-whole={rate.whole}>
      {percent(format, t, rate)}
    </span>
  );
}
