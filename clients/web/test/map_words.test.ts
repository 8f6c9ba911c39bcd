import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { GameViewSchema, Knowledge, UnitKind, UnitViewSchema } from "@gen/galloper/v1/game_pb";
import { unitSummary } from "../src/map/draw";
import { ghostColour } from "../src/map/drawPreview";
import { statusesInView } from "../src/map/legend";
import { SIDE_COLOURS } from "../src/map/style";

const sides = [{ id: "allies" }, { id: "french" }];

describe("the map in the server's words and colours", () => {
  it("draws a planned move in the moving unit's own side colour", () => {
    expect(ghostColour("allies", sides)).toBe(SIDE_COLOURS[0]);
    expect(ghostColour("french", sides)).toBe(SIDE_COLOURS[1]);
    expect(ghostColour("french", sides)).not.toBe(ghostColour("allies", sides));
  });

  it("names a unit's side and statuses as the ruleset does", () => {
    const u = create(UnitViewSchema, { id: "f1", name: "Navarre", kind: UnitKind.BRIGADE, side: "french", knowledge: Knowledge.SEEN, dps: 2, status: ["under fire"] });
    const text = unitSummary(u, (k) => (k === "under fire" ? "Under fire" : k), "France");
    expect(text).toContain("Navarre (brigade, France)");
    expect(text).toContain("2 DP");
    expect(text).toContain("Under fire");
    expect(text).not.toContain("french");
  });

  it("keys only the statuses units in view have, once each", () => {
    const view = create(GameViewSchema, {
      units: [
        { id: "a", status: ["halted", "under fire"] },
        { id: "b", status: ["halted", ""] },
        { id: "c" },
      ],
    });
    expect(statusesInView(view)).toEqual(["halted", "under fire"]);
  });
});
