import { Pagination } from "@shopify/polaris";

/** Previous and next pages under a table, as Polaris' tables show them; nothing when there is one page. */
export function TablePages({
  hasNext,
  hasPrevious,
  onNext,
  onPrevious,
  label,
}: {
  hasNext: boolean;
  hasPrevious: boolean;
  onNext(): void;
  onPrevious(): void;
  label: string;
}) {
  if (!hasNext && !hasPrevious) return null;
  return (
    <div style={{ padding: "var(--p-space-200) var(--p-space-400)" }}>
      <Pagination
        type="table"
        hasNext={hasNext}
        hasPrevious={hasPrevious}
        onNext={onNext}
        onPrevious={onPrevious}
        accessibilityLabel={label}
      />
    </div>
  );
}
