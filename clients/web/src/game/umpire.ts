// The umpire console's requests: a form's fields to an UmpireAction body.
// The reason is required here as on the server (every action is audited); a
// blank reason is refused before anything is sent. Whether the seat may take
// the action at all is the server's call, and its Error is shown as sent.
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { UmpireActionSchema } from "@gen/galloper/v1/protocol_pb";

export type UmpireKind = "pause" | "resume" | "forceResolve" | "setDeadline" | "broadcast" | "endGame" | "rewind";

export const UMPIRE_ACTIONS: { kind: UmpireKind; label: string; umpireOnly: boolean }[] = [
  { kind: "pause", label: "Pause", umpireOnly: false },
  { kind: "resume", label: "Resume", umpireOnly: false },
  { kind: "forceResolve", label: "Force resolve the step", umpireOnly: true },
  { kind: "setDeadline", label: "Set the deadline", umpireOnly: true },
  { kind: "broadcast", label: "Broadcast", umpireOnly: true },
  { kind: "endGame", label: "End the game", umpireOnly: true },
  { kind: "rewind", label: "Rewind to a step", umpireOnly: true },
];

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
    default:
      // An action this console does not know still goes to the server, which
      // names what it refuses.
      return { ok: false, field: "kind", message: `Unknown action "${form.kind}".` };
  }
}
