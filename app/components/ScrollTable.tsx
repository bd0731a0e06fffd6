import type { ReactNode } from "react";

/** A column's heading; `end` aligns the column to the end (numbers, actions). */
export type ScrollHeading = string | { title: string; end?: boolean };

export interface ScrollRow {
  key: string;
  cells: ReactNode[];
  /** A row that needs the merchant's eye. */
  tone?: "critical";
}

/**
 * A plain table in a named region the keyboard can reach and scroll: on a
 * phone a wide table scrolls sideways, and a Polaris table's scroll area takes
 * no focus (axe: scrollable-region-focusable). Each row's first cell is its
 * header; `numeric` aligns the other cells to the end, a heading's `end` one column.
 */
export function ScrollTable({
  label,
  headings,
  rows,
  numeric = false,
  ...data
}: {
  label: string;
  headings: ScrollHeading[];
  rows: ScrollRow[];
  numeric?: boolean;
} & Record<`data-${string}`, string | boolean>) {
  const end = headings.map((h) => typeof h !== "string" && h.end === true);
  const cellClass = (i: number) => (end[i] ? "cod-cell-end" : undefined);
  return (
    <div className="cod-scroll-region" role="region" aria-label={label} tabIndex={0} {...data}>
      <table className={numeric ? "cod-plain-table cod-plain-table-numeric" : "cod-plain-table"}>
        <thead>
          <tr>
            {headings.map((heading, i) => (
              <th key={i} scope="col" className={cellClass(i)}>
                {typeof heading === "string" ? heading : heading.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, cells: [first, ...rest], tone }) => (
            <tr key={key} className={tone === "critical" ? "cod-row-critical" : undefined}>
              <th scope="row">{first}</th>
              {rest.map((cell, i) => (
                <td key={i} className={cellClass(i + 1)}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
