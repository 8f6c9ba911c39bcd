// Who owes answers at this step, who has locked, and which seats the
// server's bot plays (SeatStatus). Never what anyone answered: the server
// does not send that, and this bar has no place for it. Spectators are sent
// no SeatStatus (they watch the game late, and who owes what now would tell
// them what happens now; see SeatStatus in protocol.proto): their bar says so,
// and what the table shows them.
import type { GameView } from "@gen/galloper/v1/game_pb";
import { clear, h } from "./dom";
import { seatChips, type PlayState } from "../play/state";

export class SeatsBar {
  readonly root: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly label: HTMLElement;

  constructor() {
    this.label = h("span", { class: "seats-label" }, "Seats");
    this.list = h("ul", { class: "seat-chips" });
    this.root = h(
      "section",
      { class: "seats-bar", "aria-label": "Seats owing answers", "data-testid": "seats-bar", role: "status", "aria-live": "polite" },
      this.label,
      this.list,
    );
  }

  render(state: PlayState, mySeat: string, view: GameView | null = null): void {
    if (mySeat === "spectator") {
      this.root.dataset.step = "";
      this.label.textContent = "Watching";
      clear(this.list);
      const note = spectatorNote(view, state.events.length > 0);
      this.list.append(h("li", { class: "seat-chip none", "data-testid": "spectator-note", "data-shown": note.shown }, note.text));
      return;
    }
    const step = state.seatStatusStep ?? state.step;
    this.root.dataset.step = step === null ? "" : String(step);
    this.label.textContent = step === null ? "Seats" : `Step ${step}`;
    clear(this.list);
    const chips = seatChips(state, mySeat);
    if (chips.length === 0) {
      this.list.append(h("li", { class: "seat-chip none" }, step === null ? "Waiting for the server…" : "No seat owes answers."));
      return;
    }
    for (const { seat, standing, bot, mine } of chips) {
      const stateText = standing === "locked" ? "locked" : standing === "owes" ? "answering" : "owes nothing";
      this.list.append(
        h(
          "li",
          {
            class: `seat-chip ${standing}${mine ? " mine" : ""}${bot ? " bot" : ""}`,
            "data-seat": seat,
            "data-standing": standing,
            "data-bot": bot ? "yes" : "no",
            title: bot ? `${seat} is played by the server's bot` : undefined,
          },
          h("span", { class: "seat-mark", "aria-hidden": "true" }, standing === "locked" ? "✓" : standing === "owes" ? "…" : "–"),
          h("span", { class: "seat-name" }, mine ? `${seat} (you)` : seat),
          bot ? h("span", { class: "seat-bot", "data-testid": "seat-bot" }, "bot") : null,
          h("span", { class: "seat-state" }, stateText),
        ),
      );
    }
  }
}

const turns = (n: number) => `${n} turn${n === 1 ? "" : "s"}`;

// What a spectator's table shows, from its view alone. A spectator watching
// N turns late (GameView.delayed_turns, the game's setting) is shown a turn
// as it began, and told that turn's events once the players are N turns past
// it: turn T comes when they reach turn T + N + 1 (the server's rule, see
// GameSettings.spectator_delay_turns). `shown`: "live", "late", "waiting"
// (nothing of the game can be shown yet) or "ended".
export function spectatorNote(view: GameView | null, hasEvents: boolean): { shown: string; text: string } {
  const unseen = "Spectators are not shown who is answering.";
  if (!view) return { shown: "waiting", text: `Waiting for the table… ${unseen}` };
  if (view.ended) return { shown: "ended", text: "The game has ended: the table shows its end, with everything revealed." };
  const late = view.delayedTurns;
  if (late === 0) return { shown: "live", text: `Watching live. ${unseen}` };
  const t = view.turn;
  const next = t + late + 1;
  if (!hasEvents) {
    return {
      shown: "waiting",
      text: `Spectators watch ${turns(late)} late: the table is shown as turn ${t} began, and nothing since can be shown yet. The game starts for spectators when the players reach turn ${next}. ${unseen}`,
    };
  }
  return {
    shown: "late",
    text: `Spectators watch ${turns(late)} late: the table is shown as turn ${t} began; turn ${t}'s events come when the players reach turn ${next}. ${unseen}`,
  };
}
