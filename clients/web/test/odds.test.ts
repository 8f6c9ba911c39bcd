import { create } from "@bufbuild/protobuf";
import { DecisionSchema } from "@gen/galloper/v1/game_pb";
import { OddsReplySchema } from "@gen/galloper/v1/protocol_pb";
import { describe, expect, it } from "vitest";
import { formatPercent, hasOdds, oddsLines, oddsProposal, proposalKey } from "../src/play/odds";

const fire = create(DecisionSchema, { id: "fire/allied_battery", kind: "artillery_fire", options: [{ id: "hold" }, { id: "artois" }] });
const charge = create(DecisionSchema, { id: "charge/lumleys_horse", kind: "charge_declaration", options: [{ id: "none" }, { id: "charge:artois" }, { id: "outrance:artois" }] });

describe("odds proposals", () => {
  it("a fire decision's target is a shot; hold is nothing", () => {
    expect(hasOdds(fire)).toBe(true);
    expect(oddsProposal(fire, "artois", 2)).toEqual({ case: "shot", value: { gun: "allied_battery", target: "artois" } });
    expect(oddsProposal(fire, "hold", 2)).toBeNull();
    expect(oddsProposal(fire, undefined, 2)).toBeNull();
  });

  it("a charge declaration's option is a charge with the dice chosen", () => {
    expect(oddsProposal(charge, "charge:artois", 3)).toEqual({
      case: "charge",
      value: { charger: "lumleys_horse", target: "artois", dice: 3, aOutrance: false },
    });
    expect(oddsProposal(charge, "outrance:artois", 1)).toMatchObject({ value: { aOutrance: true, dice: 1 } });
    expect(oddsProposal(charge, "none", 2)).toBeNull();
  });

  it("asks again only when the proposal changes", () => {
    expect(proposalKey(oddsProposal(charge, "charge:artois", 2))).toBe(proposalKey(oddsProposal(charge, "charge:artois", 2)));
    expect(proposalKey(oddsProposal(charge, "charge:artois", 2))).not.toBe(proposalKey(oddsProposal(charge, "charge:artois", 3)));
    expect(proposalKey(null)).toBe("");
  });

  it("other decisions have no odds", () => {
    const move = create(DecisionSchema, { id: "move/artois", kind: "move" });
    expect(hasOdds(move)).toBe(false);
    expect(oddsProposal(move, "none", 2)).toBeNull();
  });
});

describe("odds lines", () => {
  it("each outcome with its exact fraction and a percentage", () => {
    const reply = create(OddsReplySchema, {
      summary: "s",
      outcomes: [
        { label: "no effect", numerator: 2n, denominator: 3n, probability: 2 / 3 },
        { label: "1 DP", numerator: 1n, denominator: 3n, probability: 1 / 3 },
        { label: "certain", numerator: 1n, denominator: 1n, probability: 1 },
        { label: "mixed", numerator: 0n, denominator: 0n, probability: 0.123456 },
      ],
    });
    expect(oddsLines(reply)).toEqual([
      { label: "no effect", fraction: "2/3", percent: "66.7%", probability: 2 / 3 },
      { label: "1 DP", fraction: "1/3", percent: "33.3%", probability: 1 / 3 },
      { label: "certain", fraction: "1", percent: "100%", probability: 1 },
      { label: "mixed", fraction: "", percent: "12.3%", probability: 0.123456 },
    ]);
  });

  it("percentages never round a possible outcome to 0 or an uncertain one to 100", () => {
    expect(formatPercent(0)).toBe("0%");
    expect(formatPercent(1 / 46656)).toBe("<0.1%");
    expect(formatPercent(1 - 1 / 46656)).toBe(">99.9%");
    expect(formatPercent(5 / 36)).toBe("13.9%");
  });
});
