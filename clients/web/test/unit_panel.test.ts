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

  it("names formations, statuses and troop types in the ruleset's words, never its keys", () => {
    const words = {
      statusLabel: (k: string) => ({ under_fire: "Under fire", halted: "Halted" })[k] ?? k,
      formationLabel: (k: string) => ({ march_column: "March column" })[k] ?? k,
      troopTypeLabel: (k: string) => ({ horse: "Horse" })[k] ?? k,
    };
    const u = create(UnitViewSchema, { id: "u2", side: "swedes", knowledge: Knowledge.OWN, formation: "march_column", troopType: "horse", status: ["under_fire", "halted"] });
    const rows = unitRows(u, view, words);
    expect(rows).toContainEqual(["Formation", "March column"]);
    expect(rows).toContainEqual(["Troop type", "Horse"]);
    expect(rows).toContainEqual(["Status", "Under fire, Halted"]);
    expect(JSON.stringify(rows)).not.toMatch(/march_column|under_fire/);
  });
});
