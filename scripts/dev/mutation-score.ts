/**
 * Scores of a Stryker JSON report (mutation-testing-report-schema), per area and per file,
 * as Stryker computes them: killed + timeout over every valid mutant, covered or not.
 */

export interface MutantResult {
  status: string;
}
export interface JsonReport {
  files: Record<string, { mutants: MutantResult[] }>;
}

export interface Score {
  detected: number;
  valid: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  /** 100 when no mutant is valid (a file of types only). */
  score: number;
}

export interface FileScore extends Score {
  file: string;
}

/** An area must reach this (stryker.*.config.mjs thresholds.break) ... */
export const AREA_BREAK = 90;
/** ... and every file with mutants this, so a weak file cannot hide behind strong ones. */
export const FILE_BREAK = 80;

const INVALID = new Set(["CompileError", "RuntimeError", "Ignored"]);

function scoreOf(mutants: readonly MutantResult[]): Score {
  const count = (status: string) => mutants.filter((m) => m.status === status).length;
  const killed = count("Killed");
  const timeout = count("Timeout");
  const valid = mutants.filter((m) => !INVALID.has(m.status)).length;
  const detected = killed + timeout;
  return {
    detected,
    valid,
    killed,
    timeout,
    survived: count("Survived"),
    noCoverage: count("NoCoverage"),
    score: valid === 0 ? 100 : (100 * detected) / valid,
  };
}

/** The whole report's score. */
export function mutationScore(report: JsonReport): Score {
  return scoreOf(Object.values(report.files).flatMap((f) => f.mutants));
}

/** Each file's score, by path. */
export function fileScores(report: JsonReport): FileScore[] {
  return Object.entries(report.files)
    .map(([file, { mutants }]) => ({ file, ...scoreOf(mutants) }))
    .sort((a, b) => a.file.localeCompare(b.file));
}

/** Files with valid mutants that score under `threshold`. */
export function filesUnder(report: JsonReport, threshold = FILE_BREAK): FileScore[] {
  return fileScores(report).filter((f) => f.valid > 0 && f.score < threshold);
}

/** A fixed-width table: file, mutants, killed, timeout, survived, no coverage, score. */
export function scoreTable(report: JsonReport): string {
  const rows = fileScores(report).filter((f) => f.valid > 0);
  const width = Math.max(4, ...rows.map((r) => r.file.length));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(width) : c.padStart(8))).join(" ");
  return [
    line(["file", "mutants", "killed", "timeout", "survived", "no cov.", "score"]),
    ...rows.map((r) =>
      line([
        r.file,
        String(r.valid),
        String(r.killed),
        String(r.timeout),
        String(r.survived),
        String(r.noCoverage),
        `${r.score.toFixed(2)} %`,
      ]),
    ),
  ].join("\n");
}
