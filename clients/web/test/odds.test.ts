import { create } from "@bufbuild/protobuf";
import { DecisionSchema } from "@gen/galloper/v1/game_pb";
import { OddsReplySchema } from "@gen/galloper/v1/protocol_pb";
import { describe, expect, it } from "vitest";
import { formatPercent, hasOdds, oddsLines, oddsProposal, proposalKey } from "../src/play/odds";

// The server marks the options whose odds may be asked; the client knows no
// ruleset's decision kinds or option formats.
const fire = create(DecisionSchema, {
  id: "fire/allied_battery",
  kind: "artillery_fire",
  options: [{ id: "hold" }, { id: "artois", odds: true }],
});
const charge = create(DecisionSchema, {
  id: "charge/lumleys_horse",
  kind: "charge_declaration",
  options: [{ id: "none" }, { id: "charge:artois", odds: true }, { id: "outrance:artois", odds: true }],
});

describe("odds proposals", () => {
  it("a marked option is a candidate answer to its decision; others are nothing", () => {
    expect(hasOdds(fire)).toBe(true);
    expect(oddsProposal(fire, "artois", 0)).toEqual({
      case: "answer",
      value: { answer: { decisionId: "fire/allied_battery", option: "artois" }, dice: 0 },
    });
    expect(oddsProposal(fire, "hold", 0)).toBeNull();
    expect(oddsProposal(fire, "not_offered", 0)).toBeNull();
    expect(oddsProposal(fire, undefined, 0)).toBeNull();
  });

  it("carries the dice to assume where the ruleset asks for a count", () => {
    expect(oddsProposal(charge, "outrance:artois", 3)).toEqual({
      case: "answer",
      value: { answer: { decisionId: "charge/lumleys_horse", option: "outrance:artois" }, dice: 3 },
    });
    expect(oddsProposal(charge, "none", 2)).toBeNull();
  });

  it("asks again only when the proposal changes", () => {
    expect(proposalKey(oddsProposal(charge, "charge:artois", 2))).toBe(proposalKey(oddsProposal(charge, "charge:artois", 2)));
    expect(proposalKey(oddsProposal(charge, "charge:artois", 2))).not.toBe(proposalKey(oddsProposal(charge, "charge:artois", 3)));
    expect(proposalKey(null)).toBe("");
  });

  it("decisions with no marked option have no odds", () => {
    const move = create(DecisionSchema, { id: "move/artois", kind: "move", options: [{ id: "none" }] });
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
