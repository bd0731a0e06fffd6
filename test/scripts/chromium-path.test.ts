import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChromiumNotFoundError, resolveChromium } from "../../scripts/dev/lib/chromium-path";

const dir = mkdtempSync(join(tmpdir(), "chromium-path-"));
function executable(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, 0o755);
  return path;
}
const systemOne = executable("system-chromium");
const packagedOne = executable("packaged-chromium");
const notExecutable = join(dir, "plain-file");
writeFileSync(notExecutable, "");
const missing = join(dir, "missing");

describe("resolveChromium", () => {
  it("GIVEN CHROMIUM_PATH THEN it wins over a system and the packaged Chromium", async () => {
    const explicit = executable("explicit-chromium");
    await expect(
      resolveChromium({
        env: { CHROMIUM_PATH: explicit },
        systemPaths: [systemOne],
        packaged: async () => packagedOne,
      }),
    ).resolves.toEqual({ path: explicit, source: "CHROMIUM_PATH" });
  });

  it("GIVEN a CHROMIUM_PATH that is not executable THEN it fails and says what to do", async () => {
    const attempt = resolveChromium({ env: { CHROMIUM_PATH: notExecutable }, systemPaths: [systemOne] });
    await expect(attempt).rejects.toBeInstanceOf(ChromiumNotFoundError);
    await expect(attempt).rejects.toThrow(/CHROMIUM_PATH=.*plain-file is not an executable file.*unset it/);
  });

  it("GIVEN no CHROMIUM_PATH THEN the first executable system path is used", async () => {
    await expect(
      resolveChromium({ env: {}, systemPaths: [missing, notExecutable, systemOne], packaged: async () => packagedOne }),
    ).resolves.toEqual({ path: systemOne, source: "system" });
  });

  it("GIVEN no system Chromium THEN the packaged one is unpacked and used", async () => {
    let unpacked = 0;
    const choice = await resolveChromium({
      env: { CHROMIUM_PATH: "  " },
      systemPaths: [missing],
      packaged: async () => {
        unpacked += 1;
        return packagedOne;
      },
    });
    expect(choice).toEqual({ path: packagedOne, source: "@sparticuz/chromium" });
    expect(unpacked).toBe(1);
  });

  it("GIVEN nothing at all THEN the error names every place looked at and the fix", async () => {
    const attempt = resolveChromium({
      env: {},
      systemPaths: [missing],
      packaged: async () => {
        throw new Error("brotli stream truncated");
      },
    });
    await expect(attempt).rejects.toBeInstanceOf(ChromiumNotFoundError);
    await expect(attempt).rejects.toThrow(
      /none of .*missing exists.*brotli stream truncated.*npm install.*CHROMIUM_PATH/,
    );
  });

  it("GIVEN the packaged path is not executable after unpacking THEN it is refused", async () => {
    await expect(resolveChromium({ env: {}, systemPaths: [], packaged: async () => notExecutable })).rejects.toThrow(
      /not executable after unpacking/,
    );
  });
});
