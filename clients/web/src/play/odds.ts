// The odds of the order a player is composing: which proposal a decision's
// chosen option makes, and the server's answer as lines to show. The numbers
// are the server's (rules engine's); the client only formats them.
import type { Decision } from "@gen/galloper/v1/game_pb";
import type { OddsReply } from "@gen/galloper/v1/protocol_pb";

// A candidate answer to one of the seat's decisions, and (where the answer
// leaves a count of dice to a later decision, as a charge's move does) the
// count to assume. The server works out what the answer would bring.
export type OddsProposal = {
  case: "answer";
  value: { answer: { decisionId: string; option: string }; dice: number };
};

// Whether any option of the decision can be weighed: the server marks them.
export function hasOdds(d: Decision): boolean {
  return d.options.some((o) => o.odds);
}

// The proposal of answering `d` with option `optionId` (`dice` assumed where
// the ruleset asks for a count), or null when that option has no odds.
export function oddsProposal(d: Decision, optionId: string | undefined, dice: number): OddsProposal | null {
  if (!optionId || !d.options.some((o) => o.id === optionId && o.odds)) return null;
  return { case: "answer", value: { answer: { decisionId: d.id, option: optionId }, dice } };
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
