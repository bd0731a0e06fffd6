import { describe, expect, it } from "vitest";
import { fileScores, filesUnder, mutationScore, scoreTable, type JsonReport } from "../../scripts/dev/mutation-score";

const mutants = (counts: Record<string, number>) =>
  Object.entries(counts).flatMap(([status, n]) => Array.from({ length: n }, () => ({ status })));

const report: JsonReport = {
  files: {
    "app/leads/weak.ts": { mutants: mutants({ Killed: 7, Survived: 2, NoCoverage: 1, CompileError: 3 }) },
    "app/leads/strong.ts": { mutants: mutants({ Killed: 8, Timeout: 1, Survived: 1, Ignored: 4, RuntimeError: 1 }) },
    "app/leads/types.ts": { mutants: [] },
  },
};

describe("mutation scores", () => {
  it("counts killed and timed-out mutants over the valid ones, covered or not", () => {
    expect(mutationScore(report)).toMatchObject({
      detected: 16,
      valid: 20,
      killed: 15,
      timeout: 1,
      survived: 3,
      noCoverage: 1,
      score: 80,
    });
  });

  it("scores each file, a file without mutants at 100", () => {
    expect(fileScores(report).map((f) => [f.file, f.valid, f.score])).toEqual([
      ["app/leads/strong.ts", 10, 90],
      ["app/leads/types.ts", 0, 100],
      ["app/leads/weak.ts", 10, 70],
    ]);
  });

  it("names the files under the per-file bar, never one without mutants", () => {
    expect(filesUnder(report).map((f) => f.file)).toEqual(["app/leads/weak.ts"]);
    expect(filesUnder(report, 95).map((f) => f.file)).toEqual(["app/leads/strong.ts", "app/leads/weak.ts"]);
    expect(filesUnder(report, 70)).toEqual([]);
  });

  it("prints one row per file with mutants", () => {
    const rows = scoreTable(report).split("\n");
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^file\s+mutants\s+killed\s+timeout\s+survived\s+no cov\.\s+score$/);
    expect(rows[2]).toMatch(/^app\/leads\/weak\.ts\s+10\s+7\s+0\s+2\s+1\s+70\.00 %$/);
  });
});
