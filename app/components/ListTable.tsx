/**
 * A read-only table of a page's rows (Activity's logs, the mappings): Polaris' IndexTable with
 * no selection, the rows' name, and the line it shows when there are none.
 */
import type { ReactElement } from "react";
import { IndexTable, type IndexTableProps } from "@shopify/polaris";
import { TableEmptyText } from "./TableEmptyText";

export function ListTable({
  resourceName,
  empty,
  ...props
}: Omit<IndexTableProps, "selectable" | "emptyState" | "resourceName"> & {
  /** What the rows are: one word for both (a table's title), or a row's name and the rows'. */
  resourceName: string | { singular: string; plural: string };
  /** The line when there are no rows, or what to show instead. */
  empty: string | ReactElement;
}) {
  return (
    <IndexTable
      {...props}
      selectable={false}
      resourceName={typeof resourceName === "string" ? { singular: resourceName, plural: resourceName } : resourceName}
      emptyState={typeof empty === "string" ? <TableEmptyText>{empty}</TableEmptyText> : empty}
    />
  );
}
