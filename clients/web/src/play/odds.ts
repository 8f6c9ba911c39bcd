// The odds of the order a player is composing: which proposal a decision's
// chosen option makes, and the server's answer as lines to show. The numbers
// are the server's (rules engine's); the client only formats them.
import type { Decision } from "@gen/galloper/v1/game_pb";
import type { OddsReply } from "@gen/galloper/v1/protocol_pb";

export type OddsProposal =
  | { case: "charge"; value: { charger: string; target: string; dice: number; aOutrance: boolean } }
  | { case: "shot"; value: { gun: string; target: string } };

// The decision kinds whose options are proposals the server can give odds for.
export const ODDS_KINDS = ["artillery_fire", "charge_declaration"] as const;

export function hasOdds(d: Decision): boolean {
  return (ODDS_KINDS as readonly string[]).includes(d.kind);
}

// "fire/<gun>" + "<target>" is a shot; "charge/<brigade>" + "charge:<target>"
// or "outrance:<target>" is a charge with `dice` dice. Anything else (hold,
// none, another kind) proposes nothing.
export function oddsProposal(d: Decision, optionId: string | undefined, dice: number): OddsProposal | null {
  if (!optionId) return null;
  const unit = d.id.slice(d.id.indexOf("/") + 1);
  if (d.kind === "artillery_fire" && d.id.startsWith("fire/")) {
    if (optionId === "hold") return null;
    return { case: "shot", value: { gun: unit, target: optionId } };
  }
  if (d.kind === "charge_declaration" && d.id.startsWith("charge/")) {
    const m = /^(charge|outrance):(.+)$/.exec(optionId);
    if (!m) return null;
    return { case: "charge", value: { charger: unit, target: m[2]!, dice, aOutrance: m[1] === "outrance" } };
  }
  return null;
}

// A stable key: a new request only when the proposal changes.
export function proposalKey(p: OddsProposal | null): string {
  return p ? JSON.stringify(p) : "";
}

export interface OddsLine {
  label: string;
  fraction: string; // "5/36"; "" when the server gave a decimal only
  percent: string; // "13.9%"
  probability: number;
}

export function oddsLines(reply: OddsReply): OddsLine[] {
  return reply.outcomes.map((o) => ({
    label: o.label,
    fraction: o.denominator === 0n ? "" : o.denominator === 1n ? String(o.numerator) : `${o.numerator}/${o.denominator}`,
    percent: formatPercent(o.probability),
    probability: o.probability,
  }));
}

// One decimal, but never "0.0%" for a possible outcome nor "100.0%" for a
// not-quite-certain one.
export function formatPercent(p: number): string {
  if (p <= 0) return "0%";
  if (p >= 1) return "100%";
  const v = Math.round(p * 1000) / 10;
  if (v === 0) return "<0.1%";
  if (v === 100) return ">99.9%";
  return `${v.toFixed(1)}%`;
}
