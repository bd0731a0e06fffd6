/**
 * Downloads a file the app serves, through App Bridge's authenticated fetch: a plain
 * link would carry no session token. Browser only (called from click handlers).
 */
export async function download(url: string, filename: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`export answered ${response.status}`);
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = href;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(href);
}
