// Who owes answers at this step and who has locked (SeatStatus). Never what
// anyone answered: the server does not send that, and this bar has no place
// for it.
import { clear, h } from "./dom";
import { seatStanding, type PlayState } from "../play/state";

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

  render(state: PlayState, mySeat: string): void {
    const step = state.seatStatusStep ?? state.step;
    this.root.dataset.step = step === null ? "" : String(step);
    this.label.textContent = step === null ? "Seats" : `Step ${step}`;
    clear(this.list);
    const seats = [...state.owing];
    if (seats.length === 0) {
      this.list.append(h("li", { class: "seat-chip none" }, step === null ? "Waiting for the server…" : "No seat owes answers."));
      return;
    }
    for (const seat of seats) {
      const standing = seatStanding(state, seat);
      const mine = seat === mySeat;
      this.list.append(
        h(
          "li",
          { class: `seat-chip ${standing}${mine ? " mine" : ""}`, "data-seat": seat, "data-standing": standing },
          h("span", { class: "seat-mark", "aria-hidden": "true" }, standing === "locked" ? "✓" : "…"),
          h("span", { class: "seat-name" }, mine ? `${seat} (you)` : seat),
          h("span", { class: "seat-state" }, standing === "locked" ? "locked" : "answering"),
        ),
      );
    }
  }
}
