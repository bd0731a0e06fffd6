/**
 * A ScrollTable on a wide screen; below 768 px (a phone, the Shopify mobile app) each row is
 * stacked as one block, its cells one under the other with their column's heading: a wide
 * table cut at the screen's edge hides what a merchant came to read.
 */
import { useBreakpoints } from "@shopify/polaris";
import { ScrollTable, type ScrollHeading, type ScrollRow } from "./ScrollTable";

type Props = {
  label: string;
  headings: ScrollHeading[];
  rows: ScrollRow[];
} & Record<`data-${string}`, string | boolean>;

const title = (heading: ScrollHeading | undefined) => (typeof heading === "string" ? heading : (heading?.title ?? ""));

export function StackedTable(props: Props) {
  const { mdDown } = useBreakpoints();
  if (!mdDown) return <ScrollTable {...props} />;
  const { label, headings, rows, ...data } = props;
  return (
    <ul className="cod-stacked-rows" aria-label={label} {...data}>
      {rows.map(({ key, cells: [first, ...rest], tone }) => (
        <li key={key} className={tone === "critical" ? "cod-row-critical" : undefined}>
          <div className="cod-stacked-first">{first}</div>
          <dl>
            {rest.map((cell, i) =>
              cell === null || cell === undefined || cell === "" ? null : (
                <div key={i}>
                  <dt>{title(headings[i + 1])}</dt>
                  <dd>{cell}</dd>
                </div>
              ),
            )}
          </dl>
        </li>
      ))}
    </ul>
  );
}
