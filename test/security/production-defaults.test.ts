/**
 * Production unless told otherwise, decided in one place (app/env.server.ts): a process
 * that says nothing runs with production's NODE_ENV, so the address guard is on and the
 * log is JSON; only development and tests, which say so, let private hosts through.
 */
import { describe, expect, it } from "vitest";
import { parseProcessEnv, parseSellerApiEnv, parseWorkerEnv } from "../../app/env.server";
import { addressPolicyFromEnv } from "../../app/net/public-address.server";

describe("the environment's defaults", () => {
  it("GIVEN no NODE_ENV WHEN the settings are read THEN they are production's and the address guard is on", () => {
    expect(parseProcessEnv({}).NODE_ENV).toBe("production");
    expect(parseWorkerEnv({}).NODE_ENV).toBe("production");
    expect(addressPolicyFromEnv(parseSellerApiEnv({}))).toEqual({ allowPrivate: false });
  });

  it("lets private hosts through only where it is told to", () => {
    for (const NODE_ENV of ["development", "test"])
      expect(addressPolicyFromEnv(parseSellerApiEnv({ NODE_ENV }))).toEqual({ allowPrivate: true });
    expect(addressPolicyFromEnv(parseSellerApiEnv({ NODE_ENV: "production" }))).toEqual({ allowPrivate: false });
    expect(addressPolicyFromEnv(parseSellerApiEnv({ SELLER_API_ALLOW_PRIVATE_HOSTS: "true" }))).toEqual({
      allowPrivate: true,
    });
    expect(() => parseSellerApiEnv({ NODE_ENV: "staging" })).toThrow(/NODE_ENV/);
  });
});
