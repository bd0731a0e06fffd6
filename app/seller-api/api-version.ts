/**
 * The platform states its version in a response header whose name the contract does
 * not give (the sandbox uses `X-Api-Version`): read any header containing `api-version`.
 */
export const SUPPORTED_MAJOR_VERSION = 1;

export function readApiVersion(headers: Headers): string | null {
  const exact = headers.get("x-api-version");
  if (exact !== null) return exact.trim();
  for (const [name, value] of headers) {
    if (name.toLowerCase().includes("api-version")) return value.trim();
  }
  return null;
}

/** "1.3" -> 1, "v2" -> 2, "2024-01-01" -> 2024; null when no leading number. */
export function majorVersion(version: string | null | undefined): number | null {
  const m = version == null ? null : /^\s*v?(\d+)/i.exec(version);
  return m ? Number(m[1]) : null;
}

/** True when the version is stated and its major is not the one this client speaks. */
export function isUnsupportedVersion(version: string | null | undefined): boolean {
  const major = majorVersion(version);
  return major !== null && major !== SUPPORTED_MAJOR_VERSION;
}
