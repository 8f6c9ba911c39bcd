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

  it("gives a unit's tooltip its formation and troop type in the ruleset's words", () => {
    const u = create(UnitViewSchema, { id: "a1", name: "Orkney", kind: UnitKind.BRIGADE, side: "allies", knowledge: Knowledge.OWN, formation: "march_column", troopType: "foot", status: ["under_fire"] });
    const text = unitSummary(
      u,
      { statusLabel: () => "Under fire", formationLabel: () => "March column", troopTypeLabel: () => "Line infantry" },
      "Allies",
    );
    expect(text).toContain("March column");
    expect(text).toContain("Line infantry");
    expect(text).toContain("Under fire");
    expect(text).not.toMatch(/march_column|under_fire|\bfoot\b/);
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
