/**
 * The order files start in: vitest's own (the last run's slowest first, when it
 * has one), except that the chaos tests always go first. They run for minutes,
 * mostly waiting on their processes, so started first they overlap the rest of
 * the suite instead of finishing alone at its end.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

const FIRST = /\/test\/chaos\//;

export class ChaosFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => FIRST.test(f.moduleId)), ...sorted.filter((f) => !FIRST.test(f.moduleId))];
  }
}
