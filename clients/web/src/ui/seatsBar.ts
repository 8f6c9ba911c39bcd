// Who owes answers at this step, who has locked, and which seats the
// server's bot plays (SeatStatus). Never what anyone answered: the server
// does not send that, and this bar has no place for it. Spectators are sent
// no SeatStatus (they watch the game late, and who owes what now would tell
// them what happens now; see SeatStatus in protocol.proto): their bar says so.
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

  render(state: PlayState, mySeat: string, delayedTurns = 0): void {
    if (mySeat === "spectator") {
      this.root.dataset.step = "";
      this.label.textContent = "Watching";
      clear(this.list);
      const late = delayedTurns > 0 ? `The table shows the game ${delayedTurns} turn${delayedTurns === 1 ? "" : "s"} late; ` : "";
      this.list.append(h("li", { class: "seat-chip none", "data-testid": "spectator-note" }, `${late}spectators are not shown who is answering.`));
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
