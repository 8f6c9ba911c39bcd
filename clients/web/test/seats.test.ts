import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { GameViewSchema } from "@gen/galloper/v1/game_pb";
import { ScenarioInfoSchema } from "@gen/galloper/v1/protocol_pb";
import { seatName, seatsOfGame } from "../src/game/seats";

const demo = create(ScenarioInfoSchema, {
  name: "malbrook/demo",
  ruleset: "malbrook",
  seats: [
    { id: "umpire", description: "Umpire" },
    { id: "french/gauche", side: "french", description: "Franco-Bavarian army: Left wing (Lt Gen Marsin)" },
  ],
});
const other = create(ScenarioInfoSchema, { name: "cfeo/demo", ruleset: "cfeo", seats: [{ id: "french/gauche", description: "wrong game" }] });
const view = create(GameViewSchema, { scenario: "demo", ruleset: "malbrook", sides: [{ id: "french", name: "Franco-Bavarian army" }, { id: "allies", name: "Allied army" }] });

describe("seats by name", () => {
  it("finds the game's scenario in the server's list by ruleset and name", () => {
    expect(seatsOfGame([other, demo], view).map((s) => s.id)).toEqual(["umpire", "french/gauche"]);
    expect(seatsOfGame([other, demo], create(GameViewSchema, { scenario: "uploaded", ruleset: "malbrook" }))).toEqual([]);
    expect(seatsOfGame([demo], null)).toEqual([]);
  });

  it("reads a seat's description from the list, never its id", () => {
    expect(seatName("french/gauche", demo.seats, view)).toBe("Franco-Bavarian army: Left wing (Lt Gen Marsin)");
  });

  it("names a seat the list lacks from the view's sides", () => {
    expect(seatName("allies/left_wing", [], view)).toBe("Allied army: left wing");
    expect(seatName("allies/army", [], view)).toBe("Allied army: the army");
    expect(seatName("umpire", [], null)).toBe("Umpire");
    expect(seatName("nobody", [], null)).toBe("nobody");
  });
});
