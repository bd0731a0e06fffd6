/**
 * Text that sits between cards, outside them: on a phone (below Polaris' sm breakpoint) the cards run
 * edge to edge and the page has no margin, so it keeps the cards' inner margin instead of touching the
 * screen's edge.
 */
import type { ReactNode } from "react";
import { Box } from "@shopify/polaris";

export function PhoneInset({ children }: { children: ReactNode }) {
  return <Box paddingInline={{ xs: "400", sm: "0" }}>{children}</Box>;
}
