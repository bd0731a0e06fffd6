/**
 * This process's clients of the ad platforms: Meta's and TikTok's base URLs
 * from the environment (the stand-ins in tests and the demo), checked like the
 * seller API's (production: https to a public host, on the resolved address).
 */
import { createMetaClient, createTikTokClient, type MetaClient, type TikTokClient } from "../ad-platforms";
import { adPlatformsConnection } from "../net/public-address.server";

export interface AdPlatformClients {
  meta: MetaClient;
  tiktok: TikTokClient;
}

/** The settings page waits on a check: it does not retry for long. */
export function adPlatformClients(options: { timeoutMs?: number; attempts?: number } = {}): AdPlatformClients {
  const connection = adPlatformsConnection();
  const common = {
    fetch: connection.fetch,
    timeoutMs: options.timeoutMs ?? connection.timeoutMs,
    retry: options.attempts ? { attempts: options.attempts } : undefined,
  };
  return {
    meta: createMetaClient({ ...common, baseUrl: connection.metaBaseUrl }),
    tiktok: createTikTokClient({ ...common, baseUrl: connection.tiktokBaseUrl }),
  };
}
