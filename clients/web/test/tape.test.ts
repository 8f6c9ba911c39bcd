import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { RulesetInfoSchema } from "@gen/galloper/v1/protocol_pb";
import { Vocabulary } from "../src/game/ruleset";
import { frameOf, toTable } from "../src/map/orientation";
import { lengthLabel, roundLength, tapeLength, tapeMiddle } from "../src/map/tape";

const inches = new Vocabulary(create(RulesetInfoSchema, { name: "malbrook", unitName: "inch", unitPlural: "inches" }));
const yards = new Vocabulary(create(RulesetInfoSchema, { name: "cfeo", unitName: "yard", unitPlural: "yards" }));

describe("the measuring tape", () => {
  it("measures the straight line between its ends in table units", () => {
    expect(tapeLength({ from: { x: 1, y: 2 }, to: { x: 4, y: 6 } })).toBe(5);
    expect(tapeMiddle({ from: { x: 1, y: 2 }, to: { x: 4, y: 6 } })).toEqual({ x: 2.5, y: 4 });
  });

  it("says the length in the ruleset's unit: tenths, whole units from 100", () => {
    expect(lengthLabel(3.44, (n) => inches.unit(n))).toBe("3.4 inches");
    expect(lengthLabel(1.02, (n) => inches.unit(n))).toBe("1 inch");
    expect(lengthLabel(239.6, (n) => yards.unit(n))).toBe("240 yards");
    expect(roundLength(99.96)).toBe(100);
    // A ruleset the server did not describe: the plain word.
    expect(lengthLabel(2, (n) => new Vocabulary().unit(n))).toBe("2 units");
  });

  it("measures the same whichever way up the table is drawn", () => {
    const a = { x: 5, y: 20 };
    const b = { x: 11, y: 12 };
    for (const turned of [false, true]) {
      const f = frameOf({ tableWidth: 36, tableDepth: 24 }, turned);
      // Pointer positions (SVG user space) reach the tape through the frame.
      const t = { from: toTable(f, a), to: toTable(f, b) };
      expect(tapeLength(t)).toBe(10);
      expect(lengthLabel(tapeLength(t), (n) => inches.unit(n))).toBe("10 inches");
    }
    // Turned, the screen's left end is the table's east end.
    expect(toTable(frameOf({ tableWidth: 36, tableDepth: 24 }, true), a)).toEqual({ x: 31, y: 20 });
  });
});
