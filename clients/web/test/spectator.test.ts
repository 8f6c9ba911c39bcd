import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { GameViewSchema } from "@gen/galloper/v1/game_pb";
import { spectatorNote } from "../src/ui/seatsBar";

const view = (turn: number, delayedTurns: number, extra: Record<string, unknown> = {}) =>
  create(GameViewSchema, { seat: "spectator", turn, delayedTurns, ...extra });

describe("what a spectator's page says it shows", () => {
  it("live: the table as it is", () => {
    expect(spectatorNote(view(3, 0), true)).toMatchObject({ shown: "live" });
    expect(spectatorNote(view(3, 0), true).text).toMatch(/^Watching live\. Spectators are not shown who is answering\.$/);
  });

  it("late, before anything can be shown: when the game starts for spectators", () => {
    const note = spectatorNote(view(1, 1), false);
    expect(note.shown).toBe("waiting");
    expect(note.text).toContain("the table is shown as turn 1 began");
    expect(note.text).toContain("The game starts for spectators when the players reach turn 3.");
  });

  it("late, with a turn's events: when the next come", () => {
    const note = spectatorNote(view(4, 2), true);
    expect(note.shown).toBe("late");
    expect(note.text).toContain("Spectators watch 2 turns late");
    expect(note.text).toContain("turn 4's events come when the players reach turn 7");
  });

  it("the end: everything revealed", () => {
    expect(spectatorNote(view(5, 1, { ended: true }), true).shown).toBe("ended");
    expect(spectatorNote(null, false).shown).toBe("waiting");
  });
});
