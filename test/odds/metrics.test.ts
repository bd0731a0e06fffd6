import { describe, expect, it } from "vitest";
import { auc, brierScore, reliabilityByDecile } from "../../app/odds/metrics";

const rows = (pairs: [number, boolean][]) => pairs.map(([probability, delivered]) => ({ probability, delivered }));

describe("calibration and ranking figures", () => {
  it("GIVEN probabilities THEN the Brier score is their mean squared error", () => {
    expect(
      brierScore(
        rows([
          [1, true],
          [0, false],
        ]),
      ),
    ).toBe(0);
    expect(
      brierScore(
        rows([
          [0.8, true],
          [0.3, false],
        ]),
      ),
    ).toBeCloseTo((0.04 + 0.09) / 2);
    expect(brierScore([])).toBeNaN();
  });

  it("GIVEN a perfect, a reversed and a constant score THEN the AUC is 1, 0 and 0.5", () => {
    const outcomes = [true, true, false, false, true];
    expect(auc(rows(outcomes.map((d, i) => [d ? 0.9 - i / 100 : 0.1 + i / 100, d])))).toBe(1);
    expect(auc(rows(outcomes.map((d, i) => [d ? 0.1 + i / 100 : 0.9 - i / 100, d])))).toBe(0);
    expect(auc(rows(outcomes.map((d) => [0.5, d])))).toBe(0.5);
    expect(auc(rows([[0.5, true]]))).toBeNaN();
  });

  it("GIVEN one pair in the wrong order of four THEN the AUC counts it (Mann-Whitney)", () => {
    expect(
      auc(
        rows([
          [0.9, true],
          [0.2, true],
          [0.3, false],
          [0.1, false],
        ]),
      ),
    ).toBe(0.75);
  });

  it("GIVEN 100 orders THEN ten deciles of ten, lowest scores first, with predicted and observed shares", () => {
    const bins = reliabilityByDecile(rows(Array.from({ length: 100 }, (_, i) => [i / 100, i % 2 === 0])));
    expect(bins).toHaveLength(10);
    expect(bins.every((b) => b.orders === 10)).toBe(true);
    expect(bins[0].predicted).toBeCloseTo(0.045);
    expect(bins[9].predicted).toBeCloseTo(0.945);
    expect(bins[0].observed).toBe(0.5);
  });
});
