import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { GameViewSchema, Knowledge, UnitViewSchema } from "@gen/galloper/v1/game_pb";
import { unitRows } from "../src/ui/unitPanel";

const view = create(GameViewSchema, { unitName: "yard", sides: [{ id: "swedes", name: "Swedes" }] });

describe("unit panel rows", () => {
  it("shows the ruleset's own counters and attributes in its words", () => {
    const u = create(UnitViewSchema, {
      id: "u1",
      name: "Upland Regiment",
      side: "swedes",
      knowledge: Knowledge.OWN,
      counters: [
        { name: "casualties", value: 2, max: 6 },
        { name: "stamina", value: 3 },
      ],
      attributes: [{ name: "pikes", value: "2 bases" }],
    });
    const rows = unitRows(u, view);
    expect(rows).toContainEqual(["Casualties", "2 of 6"]);
    expect(rows).toContainEqual(["Stamina", "3"]);
    expect(rows).toContainEqual(["Pikes", "2 bases"]);
    expect(rows).toContainEqual(["Side", "Swedes"]);
  });

  it("leaves out what the seat's view does not say", () => {
    const u = create(UnitViewSchema, { id: "e1", side: "swedes", knowledge: Knowledge.SEEN });
    const labels = unitRows(u, view).map(([k]) => k);
    expect(labels).not.toContain("Grade");
    expect(labels).not.toContain("Disorder points");
    expect(labels).not.toContain("Casualties");
  });
});
