/**
 * A page's actions through one fetcher, its key keeping it across re-renders: submit posts an
 * intent's fields, busy while it runs, result its answer once settled, posting the fields in flight
 * (so only the row being fixed shows a spinner).
 */
import { useFetcher } from "@remix-run/react";

export function usePageAction<Action>(key: string) {
  const fetcher = useFetcher<Action>({ key });
  const busy = fetcher.state !== "idle";
  return {
    busy,
    result: busy ? undefined : fetcher.data,
    posting: busy ? fetcher.formData : undefined,
    submit: (fields: Record<string, string>) => fetcher.submit(fields, { method: "post" }),
  };
}
