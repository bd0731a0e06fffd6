/**
 * `npm run demo:screenshot`: its options, and the demo's lines it waits on before taking
 * the README's picture (the demo's own output, as scripts/dev/demo/run-demo.ts prints it).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../scripts/dev/lib/args";
import { isDemoReady, parseDemoScreenshotOptions, previewUrlOf } from "../../../scripts/dev/demo/screenshot-options";

const ROOT = join(import.meta.dirname, "..", "..", "..");

describe("demo:screenshot options", () => {
  it("GIVEN no option WHEN parsed THEN it starts a demo of its own and writes the README's picture", () => {
    expect(parseDemoScreenshotOptions([])).toEqual({
      help: false,
      preview: null,
      out: join(ROOT, "docs", "demo-admin-preview.png"),
      demoArgs: [],
    });
  });

  it("GIVEN demo options after -- WHEN parsed THEN they go to the demo it starts", () => {
    expect(parseDemoScreenshotOptions(["--out", "/tmp/x.png", "--", "--port", "9090", "--fresh"])).toMatchObject({
      out: "/tmp/x.png",
      demoArgs: ["--port", "9090", "--fresh"],
    });
  });

  it("GIVEN a running demo's preview WHEN parsed THEN it is used; a preview elsewhere than this machine, or with demo options, is refused", () => {
    expect(parseDemoScreenshotOptions(["--preview", "http://127.0.0.1:8081/"]).preview).toBe("http://127.0.0.1:8081/");
    expect(() => parseDemoScreenshotOptions(["--preview", "https://example.com/"])).toThrow(UsageError);
    expect(() => parseDemoScreenshotOptions(["--preview", "http://127.0.0.1:8081/", "--", "--fresh"])).toThrow(
      /not both/,
    );
    expect(() => parseDemoScreenshotOptions(["--size", "2"])).toThrow(/unknown option --size/);
  });
});

describe("the demo's lines it waits on", () => {
  it("GIVEN the demo's output WHEN read line by line THEN the preview's URL and the moment its orders settled are found", () => {
    expect(previewUrlOf("Admin preview: http://127.0.0.1:8081/")).toBe("http://127.0.0.1:8081/");
    expect(previewUrlOf("The sync ledger (Activity): http://127.0.0.1:8081/__preview/open?x")).toBeNull();
    expect(isDemoReady("Press Ctrl-C to stop.")).toBe(true);
    expect(isDemoReady("[38/38] #1038 created ATB-100026")).toBe(false);
  });
});
