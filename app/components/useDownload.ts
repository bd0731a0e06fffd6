/**
 * A page's export buttons: which file is being downloaded (its button spins), and a toast
 * in the reader's words when the download fails.
 */
import { useState } from "react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { download } from "./download";

export function useDownload<K extends string>(failedText: string) {
  const shopify = useAppBridge();
  const [downloading, setDownloading] = useState<K | null>(null);
  const start = (key: K, url: string, filename: string) => {
    setDownloading(key);
    download(url, filename)
      .catch(() => shopify.toast.show(failedText, { isError: true }))
      .finally(() => setDownloading(null));
  };
  return { downloading, start };
}
