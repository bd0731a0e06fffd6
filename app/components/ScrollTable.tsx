import type { ReactNode } from "react";

/**
 * A plain table in a named region the keyboard can reach and scroll: on a
 * phone a wide table scrolls sideways, and a Polaris table's scroll area takes
 * no focus (axe: scrollable-region-focusable). Each row's first cell is its
 * header; `numeric` aligns the other cells to the end.
 */
export function ScrollTable({
  label,
  headings,
  rows,
  numeric = false,
  ...data
}: {
  label: string;
  headings: string[];
  rows: { key: string; cells: ReactNode[] }[];
  numeric?: boolean;
} & Record<`data-${string}`, string | boolean>) {
  return (
    <div className="cod-scroll-region" role="region" aria-label={label} tabIndex={0} {...data}>
      <table className={numeric ? "cod-plain-table cod-plain-table-numeric" : "cod-plain-table"}>
        <thead>
          <tr>
            {headings.map((heading, i) => (
              <th key={i} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, cells: [first, ...rest] }) => (
            <tr key={key}>
              <th scope="row">{first}</th>
              {rest.map((cell, i) => (
                <td key={i}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
