import { mkdtempSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shownPath } from "../../../scripts/dev/demo/shown-path";

describe("the paths the demo prints", () => {
  it("GIVEN the demo's log under the clone WHEN it is printed THEN the path is absolute and opens the file from any folder", () => {
    const root = mkdtempSync(join(tmpdir(), "demo-root-"));
    writeFileSync(join(root, "app.log"), "");
    const printed = shownPath(join(root, ".demo", "..", "app.log"), root);
    expect(printed.startsWith("/")).toBe(true);
    expect(existsSync(printed)).toBe(true);
  });

  it("GIVEN a folder given relative to the clone (--data-dir .demo) THEN it is printed from the clone's root", () => {
    expect(shownPath(".demo/app.log", "/clone")).toBe("/clone/.demo/app.log");
  });
});
