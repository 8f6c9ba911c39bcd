// The umpire console's requests: a form's fields to an UmpireAction body.
// The reason is required here as on the server (every action is audited); a
// blank reason is refused before anything is sent. Whether the seat may take
// the action at all is the server's call, and its Error is shown as sent.
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { UmpireActionSchema } from "@gen/galloper/v1/protocol_pb";
import type { EditKind } from "./ruleset";

export type { EditField } from "./ruleset";

export type UmpireKind = "pause" | "resume" | "forceResolve" | "setDeadline" | "broadcast" | "endGame" | "rewind" | "editState" | "setBotSeat";

export const UMPIRE_ACTIONS: { kind: UmpireKind; label: string; umpireOnly: boolean }[] = [
  { kind: "pause", label: "Pause", umpireOnly: false },
  { kind: "resume", label: "Resume", umpireOnly: false },
  { kind: "forceResolve", label: "Force resolve the step", umpireOnly: true },
  { kind: "setDeadline", label: "Set the deadline", umpireOnly: true },
  { kind: "broadcast", label: "Broadcast", umpireOnly: true },
  { kind: "endGame", label: "End the game", umpireOnly: true },
  { kind: "rewind", label: "Rewind to a step", umpireOnly: true },
  { kind: "editState", label: "Edit the state", umpireOnly: true },
  { kind: "setBotSeat", label: "Hand a seat to the bot, or take it back", umpireOnly: true },
];

// The edits a ruleset takes (rules/core/edit.hpp) and the form fields each
// one reads come from the server (RulesetInfo.edit_kinds, game/ruleset.ts).
// The server checks everything and says why it refuses; the console only
// makes sure the fields a kind needs are filled in and are numbers.
export interface EditForm {
  kind: string;
  subject: string;
  x: string;
  y: string;
  facing: string; // empty keeps the facing
  value: string; // DPs, or a leader's wounds (empty keeps them)
  key: string;
  flag: string; // "yes", "no", or "" to clear the ruling
}

export const emptyEdit = (): EditForm => ({ kind: "move", subject: "", x: "", y: "", facing: "", value: "", key: "", flag: "" });

export function actionsFor(seat: string): typeof UMPIRE_ACTIONS {
  return seat === "umpire" ? UMPIRE_ACTIONS : UMPIRE_ACTIONS.filter((a) => !a.umpireOnly);
}

export interface UmpireForm {
  kind: string;
  reason: string;
  deadline: string; // "" clears; minutes from now ("30") or a date-time ("2025-06-01T18:00")
  text: string; // broadcast
  result: string; // end game
  toStep: string; // rewind
  edit?: EditForm; // editState
  editKinds?: EditKind[]; // the ruleset's (RulesetInfo.edit_kinds)
  seat?: string; // setBotSeat: the player seat
  bot?: string; // setBotSeat: "yes" hands it to the bot, "no" takes it back
}

type ActionInit = NonNullable<MessageInitShape<typeof UmpireActionSchema>["action"]>;
export type UmpireRequest = { reason: string; action: ActionInit };
export type UmpireFormResult = { ok: true; request: UmpireRequest } | { ok: false; field: keyof UmpireForm; message: string };

// A deadline as Unix seconds: "" or "0" clears it, a number is minutes from
// now, anything else must parse as a local date-time.
export function parseDeadline(text: string, nowMs: number): number | null {
  const t = text.trim();
  if (t === "" || t === "0") return 0;
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(nowMs / 1000 + Number(t) * 60);
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? Math.round(ms / 1000) : null;
}

export function umpireRequest(form: UmpireForm, nowMs: number): UmpireFormResult {
  const reason = form.reason.trim();
  if (!reason) return { ok: false, field: "reason", message: "Give a reason: every umpire action goes into the audit trail." };
  switch (form.kind) {
    case "pause":
      return { ok: true, request: { reason, action: { case: "pause", value: {} } } };
    case "resume":
      return { ok: true, request: { reason, action: { case: "resume", value: {} } } };
    case "forceResolve":
      return { ok: true, request: { reason, action: { case: "forceResolve", value: {} } } };
    case "setDeadline": {
      const at = parseDeadline(form.deadline, nowMs);
      if (at === null) return { ok: false, field: "deadline", message: "The deadline is minutes from now, or a date and time (empty clears it)." };
      return { ok: true, request: { reason, action: { case: "setDeadline", value: { deadlineUnix: BigInt(at) } } } };
    }
    case "broadcast": {
      const text = form.text.trim();
      if (!text) return { ok: false, field: "text", message: "Write the message to broadcast." };
      return { ok: true, request: { reason, action: { case: "broadcast", value: { text } } } };
    }
    case "endGame": {
      const result = form.result.trim();
      if (!result) return { ok: false, field: "result", message: "State the result: it is shown to everyone." };
      return { ok: true, request: { reason, action: { case: "endGame", value: { result } } } };
    }
    case "rewind": {
      const t = form.toStep.trim();
      if (!/^\d+$/.test(t)) return { ok: false, field: "toStep", message: "Rewind to a step number." };
      return { ok: true, request: { reason, action: { case: "rewind", value: { toStep: BigInt(t) } } } };
    }
    case "editState": {
      const built = editState(form.edit ?? emptyEdit(), form.editKinds ?? []);
      if (!built.ok) return { ok: false, field: "edit", message: built.message };
      return { ok: true, request: { reason, action: { case: "editState", value: built.value } } };
    }
    case "setBotSeat": {
      const seat = (form.seat ?? "").trim();
      if (!seat) return { ok: false, field: "seat", message: "Name the seat, e.g. red/left (which seats are player seats is the server's call)." };
      if (form.bot !== "yes" && form.bot !== "no") return { ok: false, field: "bot", message: "Choose to hand the seat to the bot or take it back." };
      return { ok: true, request: { reason, action: { case: "setBotSeat", value: { seat, bot: form.bot === "yes" } } } };
    }
    default:
      // An action this console does not know still goes to the server, which
      // names what it refuses.
      return { ok: false, field: "kind", message: `Unknown action "${form.kind}".` };
  }
}

type EditInit = Extract<ActionInit, { case: "editState" }>["value"];

function num(text: string): number | null | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

// An edit form to an EditState: the fields its kind reads, nothing else.
export function editState(f: EditForm, kinds: readonly EditKind[]): { ok: true; value: EditInit } | { ok: false; message: string } {
  const spec = kinds.find((k) => k.kind === f.kind);
  const subject = f.subject.trim();
  if (!subject) return { ok: false, message: "Name the unit or leader to edit (its id, or click it on the map)." };
  const value: EditInit = { kind: f.kind, subject, key: "" };
  // A kind this console does not know still goes to the server, which names what it refuses.
  const fields = spec?.fields ?? ["x", "y", "facing", "value", "key", "flag"];
  if (fields.includes("x")) {
    const x = num(f.x);
    const y = num(f.y);
    if (spec && (x === undefined || y === undefined)) return { ok: false, message: "A move needs the new position: x and y in table units." };
    if (x === null || y === null) return { ok: false, message: "The position is two numbers (table units)." };
    if (x !== undefined && y !== undefined) value.position = { x, y };
    const facing = num(f.facing);
    if (facing === null) return { ok: false, message: "The facing is a number of degrees (empty keeps it)." };
    if (facing !== undefined) value.facingDeg = facing;
  }
  if (fields.includes("value")) {
    const v = num(f.value);
    if (v === null || (v !== undefined && !Number.isInteger(v))) return { ok: false, message: "The value is a whole number." };
    if (v === undefined && f.kind === "set_dps") return { ok: false, message: "Give the number of DPs." };
    if (v !== undefined) value.value = BigInt(v);
  }
  if (fields.includes("key")) value.key = f.key.trim();
  if (fields.includes("flag")) {
    if (f.flag === "yes") value.flag = true;
    else if (f.flag === "no") value.flag = false;
  }
  return { ok: true, value };
}
