/** The sandbox's tunable behaviour (PUT /_sandbox/config), validated as a partial patch. */
import { z } from "zod";

export interface SandboxConfig {
  rate_limit_per_minute: number;
  duplicate_window_seconds: number;
  fault: { error_rate: number; latency_ms: number; hang_rate: number };
  events: { url: string | null; secret: string | null; max_attempts: number; retry_base_ms: number };
  autopilot: boolean;
}

export function defaultConfig(
  overrides: { rateLimitPerMinute?: number; duplicateWindowSeconds?: number; autopilot?: boolean } = {},
): SandboxConfig {
  return {
    rate_limit_per_minute: overrides.rateLimitPerMinute ?? 60,
    duplicate_window_seconds: overrides.duplicateWindowSeconds ?? 600,
    fault: { error_rate: 0, latency_ms: 0, hang_rate: 0 },
    events: { url: null, secret: null, max_attempts: 6, retry_base_ms: 1000 },
    autopilot: overrides.autopilot ?? false,
  };
}

const share = z.number().min(0).max(1);

export const configPatchSchema = z
  .object({
    rate_limit_per_minute: z.number().int().positive(),
    duplicate_window_seconds: z.number().int().nonnegative(),
    fault: z
      .object({ error_rate: share, latency_ms: z.number().int().nonnegative().max(60_000), hang_rate: share })
      .partial()
      .strict(),
    events: z
      .object({
        url: z.string().url().nullable(),
        secret: z.string().min(1).nullable(),
        max_attempts: z.number().int().min(1).max(20),
        retry_base_ms: z.number().int().min(1).max(600_000),
      })
      .partial()
      .strict(),
    autopilot: z.boolean(),
  })
  .partial()
  .strict();

export type ConfigPatch = z.infer<typeof configPatchSchema>;

export function applyConfigPatch(config: SandboxConfig, patch: ConfigPatch): SandboxConfig {
  return {
    ...config,
    ...(patch.rate_limit_per_minute !== undefined && { rate_limit_per_minute: patch.rate_limit_per_minute }),
    ...(patch.duplicate_window_seconds !== undefined && { duplicate_window_seconds: patch.duplicate_window_seconds }),
    ...(patch.autopilot !== undefined && { autopilot: patch.autopilot }),
    fault: { ...config.fault, ...patch.fault },
    events: { ...config.events, ...patch.events },
  };
}
