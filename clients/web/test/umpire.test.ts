import { describe, expect, it } from "vitest";
import type { EditKind } from "../src/game/ruleset";
import { actionsFor, editState, emptyEdit, parseDeadline, umpireRequest, type EditForm, type UmpireForm } from "../src/game/umpire";

const form = (over: Partial<UmpireForm>): UmpireForm => ({ kind: "pause", reason: "", deadline: "", text: "", result: "", toStep: "", ...over });
const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);

describe("umpire console requests", () => {
  it("refuses a blank reason before sending anything", () => {
    for (const kind of ["pause", "resume", "forceResolve", "broadcast", "endGame"]) {
      expect(umpireRequest(form({ kind, reason: "   ", text: "x", result: "x" }), NOW)).toMatchObject({ ok: false, field: "reason" });
    }
  });

  it("builds each action with its reason", () => {
    expect(umpireRequest(form({ kind: "pause", reason: " tea " }), NOW)).toEqual({ ok: true, request: { reason: "tea", action: { case: "pause", value: {} } } });
    expect(umpireRequest(form({ kind: "forceResolve", reason: "late" }), NOW)).toMatchObject({ ok: true, request: { action: { case: "forceResolve" } } });
    expect(umpireRequest(form({ kind: "broadcast", reason: "r", text: " Rain " }), NOW)).toMatchObject({
      ok: true,
      request: { action: { case: "broadcast", value: { text: "Rain" } } },
    });
    expect(umpireRequest(form({ kind: "endGame", reason: "r", result: "Allied victory" }), NOW)).toMatchObject({
      ok: true,
      request: { action: { case: "endGame", value: { result: "Allied victory" } } },
    });
    expect(umpireRequest(form({ kind: "rewind", reason: "r", toStep: "7" }), NOW)).toMatchObject({
      ok: true,
      request: { action: { case: "rewind", value: { toStep: 7n } } },
    });
    expect(umpireRequest(form({ kind: "setDeadline", reason: "r", deadline: "30" }), NOW)).toMatchObject({
      ok: true,
      request: { action: { case: "setDeadline", value: { deadlineUnix: BigInt(NOW / 1000 + 1800) } } },
    });
  });

  it("asks for the field an action needs", () => {
    expect(umpireRequest(form({ kind: "broadcast", reason: "r" }), NOW)).toMatchObject({ ok: false, field: "text" });
    expect(umpireRequest(form({ kind: "endGame", reason: "r" }), NOW)).toMatchObject({ ok: false, field: "result" });
    expect(umpireRequest(form({ kind: "rewind", reason: "r", toStep: "-1" }), NOW)).toMatchObject({ ok: false, field: "toStep" });
    expect(umpireRequest(form({ kind: "setDeadline", reason: "r", deadline: "next week" }), NOW)).toMatchObject({ ok: false, field: "deadline" });
  });

  it("hands a seat to the bot or takes it back, with the reason", () => {
    expect(umpireRequest(form({ kind: "setBotSeat", reason: " player left ", seat: " red/left ", bot: "yes" }), NOW)).toEqual({
      ok: true,
      request: { reason: "player left", action: { case: "setBotSeat", value: { seat: "red/left", bot: true } } },
    });
    expect(umpireRequest(form({ kind: "setBotSeat", reason: "back", seat: "red/left", bot: "no" }), NOW)).toMatchObject({
      ok: true,
      request: { action: { case: "setBotSeat", value: { seat: "red/left", bot: false } } },
    });
    expect(umpireRequest(form({ kind: "setBotSeat", reason: "r", seat: "  ", bot: "yes" }), NOW)).toMatchObject({ ok: false, field: "seat" });
    expect(umpireRequest(form({ kind: "setBotSeat", reason: "r", seat: "red/left" }), NOW)).toMatchObject({ ok: false, field: "bot" });
    expect(umpireRequest(form({ kind: "setBotSeat", reason: " ", seat: "red/left", bot: "yes" }), NOW)).toMatchObject({ ok: false, field: "reason" });
    // Whether the seat is a player seat is the server's call: "umpire" goes, and the server says no.
    expect(umpireRequest(form({ kind: "setBotSeat", reason: "r", seat: "umpire", bot: "yes" }), NOW)).toMatchObject({ ok: true });
  });

  it("reads deadlines as minutes from now, a date-time, or nothing", () => {
    expect(parseDeadline("", NOW)).toBe(0);
    expect(parseDeadline("0", NOW)).toBe(0);
    expect(parseDeadline("1.5", NOW)).toBe(NOW / 1000 + 90);
    expect(parseDeadline("2025-01-01T13:00:00Z", NOW)).toBe(NOW / 1000 + 3600);
    expect(parseDeadline("??", NOW)).toBeNull();
  });

  it("offers players pause and resume only", () => {
    expect(actionsFor("red/army").map((a) => a.kind)).toEqual(["pause", "resume"]);
    expect(actionsFor("umpire").map((a) => a.kind)).toEqual(["pause", "resume", "forceResolve", "setDeadline", "broadcast", "endGame", "rewind", "editState", "setBotSeat"]);
  });
});

const edit = (over: Partial<EditForm>): EditForm => ({ ...emptyEdit(), ...over });
// The edit kinds a ruleset sends (RulesetInfo.edit_kinds): Malbrook's.
const KINDS: EditKind[] = [
  { kind: "move", label: "Move a unit or leader", fields: ["x", "y", "facing"] },
  { kind: "remove", label: "Remove from the table", fields: ["key"] },
  { kind: "set_dps", label: "Set DPs", fields: ["value"] },
  { kind: "leader_status", label: "Set a leader's status", fields: ["key", "value"] },
  { kind: "attach", label: "Attach or detach a leader", fields: ["key"] },
  { kind: "advantage_of_ground", label: "Rule on advantage of ground", fields: ["flag"] },
];

describe("umpire state edits", () => {
  it("builds an edit with its reason, sending only the fields its kind reads", () => {
    const built = umpireRequest(form({ kind: "editState", reason: " misplaced ", edit: edit({ kind: "move", subject: " b1 ", x: "12", y: "30.5", facing: "90", value: "3", key: "k" }), editKinds: KINDS }), NOW);
    expect(built).toEqual({
      ok: true,
      request: { reason: "misplaced", action: { case: "editState", value: { kind: "move", subject: "b1", key: "", position: { x: 12, y: 30.5 }, facingDeg: 90 } } },
    });
    expect(editState(edit({ kind: "move", subject: "b1", x: "1", y: "2" }), KINDS)).toEqual({ ok: true, value: { kind: "move", subject: "b1", key: "", position: { x: 1, y: 2 } } });
    expect(editState(edit({ kind: "set_dps", subject: "b1", value: "2" }), KINDS)).toEqual({ ok: true, value: { kind: "set_dps", subject: "b1", key: "", value: 2n } });
    expect(editState(edit({ kind: "remove", subject: "mg", key: "captured" }), KINDS)).toEqual({ ok: true, value: { kind: "remove", subject: "mg", key: "captured" } });
    expect(editState(edit({ kind: "leader_status", subject: "mg", key: "active", value: "0" }), KINDS)).toEqual({
      ok: true,
      value: { kind: "leader_status", subject: "mg", key: "active", value: 0n },
    });
    expect(editState(edit({ kind: "attach", subject: "mg", key: "" }), KINDS)).toEqual({ ok: true, value: { kind: "attach", subject: "mg", key: "" } });
    expect(editState(edit({ kind: "advantage_of_ground", subject: "b1", flag: "no" }), KINDS)).toEqual({
      ok: true,
      value: { kind: "advantage_of_ground", subject: "b1", key: "", flag: false },
    });
    expect(editState(edit({ kind: "advantage_of_ground", subject: "b1", flag: "" }), KINDS)).toEqual({ ok: true, value: { kind: "advantage_of_ground", subject: "b1", key: "" } });
  });

  it("asks for what an edit needs before sending", () => {
    expect(umpireRequest(form({ kind: "editState", reason: "r", edit: edit({ subject: " " }) }), NOW)).toMatchObject({ ok: false, field: "edit" });
    expect(umpireRequest(form({ kind: "editState", reason: "", edit: edit({ subject: "b1", x: "1", y: "1" }) }), NOW)).toMatchObject({ ok: false, field: "reason" });
    expect(editState(edit({ kind: "move", subject: "b1", x: "1" }), KINDS)).toMatchObject({ ok: false });
    expect(editState(edit({ kind: "move", subject: "b1", x: "a", y: "1" }), KINDS)).toMatchObject({ ok: false });
    expect(editState(edit({ kind: "set_dps", subject: "b1" }), KINDS)).toMatchObject({ ok: false });
    expect(editState(edit({ kind: "set_dps", subject: "b1", value: "1.5" }), KINDS)).toMatchObject({ ok: false });
  });
});
