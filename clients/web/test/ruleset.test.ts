import { create } from "@bufbuild/protobuf";
import { RulesetInfoSchema } from "@gen/galloper/v1/protocol_pb";
import { describe, expect, it } from "vitest";
import { Vocabulary } from "../src/game/ruleset";

// A ruleset as the server describes it (RulesetInfo): the panels read it
// through Vocabulary and know no ruleset's words of their own.
const info = create(RulesetInfoSchema, {
  name: "cfeo",
  unitName: "yard",
  unitPlural: "yards",
  scale: "1 yard = 1 yard",
  stepActions: [
    { key: "march", label: "March", fields: ["distance"] },
    { key: "volley", label: "Volley", fields: ["target", "no_such_field"] },
  ],
  orders: [{ decisionKind: "manoeuvre", actions: ["march"] }],
  decisionKinds: [{ key: "manoeuvre", label: "Manoeuvre" }],
  formations: [{ key: "assault column", label: "Assault column" }],
  statuses: [{ key: "shaken", label: "Shaken (−1 to hit)" }],
  editKinds: [{ kind: "set_dps", label: "Set DPs", fields: ["value", "colour"], keyLabel: "" }],
  oddsDice: [{ decisionKind: "assault", choices: [{ key: "1", label: "One die" }, { key: "2", label: "Two dice" }], defaultChoice: "2" }],
});

describe("a ruleset's words", () => {
  it("come from what the server sent", () => {
    const w = new Vocabulary(info);
    expect(w.name).toBe("cfeo");
    expect(w.unit(1)).toBe("yard");
    expect(w.unit(3)).toBe("yards");
    expect(w.allActions()).toEqual(["march", "volley"]);
    expect(w.actionsFor("manoeuvre")).toEqual(["march"]);
    expect(w.oddsDice("assault")?.choices.map((c) => c.key)).toEqual(["1", "2"]);
    expect(w.oddsDice("assault")?.defaultChoice).toBe("2");
    expect(w.oddsDice("manoeuvre")).toBeUndefined();
    expect(w.actionsFor("charge")).toBeUndefined();
    expect(w.actionLabel("volley")).toBe("Volley");
    expect(w.actionLabel("unknown")).toBe("unknown");
    expect(w.decisionLabel("manoeuvre")).toBe("Manoeuvre");
    expect(w.formations()).toEqual(["assault column"]);
    expect(w.statusLabel("shaken")).toBe("Shaken (−1 to hit)");
    expect(w.statusLabel("blown")).toBe("blown");
  });

  it("show a step only the fields its action reads, and every field for an action not described", () => {
    const w = new Vocabulary(info);
    expect(w.stepFields("march")).toEqual(["distance"]);
    expect(w.stepFields("volley")).toEqual(["target"]);
    expect(w.stepFields("unknown")).toEqual(["distance", "angleDeg", "pivot", "side", "formation", "to", "target"]);
  });

  it("give the umpire only the edit fields the console has", () => {
    expect(new Vocabulary(info).editKinds()).toEqual([{ kind: "set_dps", label: "Set DPs", fields: ["value"] }]);
  });

  it("are empty before the server has said which ruleset", () => {
    const w = new Vocabulary();
    expect(w.allActions()).toEqual([]);
    expect(w.editKinds()).toEqual([]);
    expect(w.unit(1)).toBe("unit");
    expect(w.unit(2)).toBe("units");
    expect(w.statusLabel("halted")).toBe("halted");
  });
});

describe("a unit's words", () => {
  it("formations and troop types as the ruleset labels them, the key for one it did not describe", () => {
    const w = new Vocabulary(create(RulesetInfoSchema, {
      formations: [{ key: "march_column", label: "March column" }],
      troopTypes: [{ key: "horse", label: "Horse (cavalry)" }],
    }));
    expect(w.formationLabel("march_column")).toBe("March column");
    expect(w.troopTypeLabel("horse")).toBe("Horse (cavalry)");
    expect(w.formationLabel("square")).toBe("square");
    expect(new Vocabulary().troopTypeLabel("foot")).toBe("foot");
  });
});
