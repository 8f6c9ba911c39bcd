// The "what you owe now" strip: always in view above the table, it says how
// many decisions this seat owes at the open step, how each stands (from the
// server's verdicts only) and when the step closes. An entry leads to its
// card in the orders panel.
import { countdown } from "../game/life";
import { owedHeadline, type OwedStatus, type OwedSummary } from "../play/owed";
import { clear, h } from "./dom";

const MARK: Record<OwedStatus, string> = { unanswered: "○", sending: "…", answered: "✓", refused: "✕", defaulted: "–" };
const WORD: Record<OwedStatus, string> = {
  unanswered: "not answered",
  sending: "sending",
  answered: "answered",
  refused: "refused",
  defaulted: "default taken",
};

export class OweBar {
  readonly root: HTMLElement;
  private readonly text: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly deadline: HTMLElement;
  private deadlineUnix = 0;
  private paused = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private key = "";

  constructor(private readonly open: (decisionId: string) => void) {
    this.text = h("span", { class: "owe-text", "data-testid": "owe-text" });
    this.list = h("ul", { class: "owe-list", "aria-label": "Decisions owed" });
    this.deadline = h("span", { class: "owe-deadline", "data-testid": "owe-deadline", hidden: true });
    this.root = h(
      "nav",
      { class: "owe-bar", "data-testid": "owe-bar", "aria-label": "What you owe now" },
      this.text,
      this.list,
      this.deadline,
    );
  }

  // `watching`: a spectator owes nothing and is not shown the strip.
  render(summary: OwedSummary, deadlineUnix: number, paused: boolean, watching: boolean): void {
    this.root.hidden = watching;
    this.root.dataset.locked = String(summary.locked);
    this.root.dataset.unanswered = String(summary.counts.unanswered + summary.counts.refused);
    this.text.textContent = owedHeadline(summary);
    // Rebuilt only when an entry changed: a focused entry keeps its focus.
    const key = JSON.stringify(summary.entries) + summary.locked;
    if (key !== this.key) {
      this.key = key;
      const focused = (document.activeElement as HTMLElement | null)?.dataset?.decisionId;
      clear(this.list);
      for (const e of summary.entries) {
        const b = h(
          "button",
          {
            type: "button",
            class: `owe-entry small`,
            "data-decision-id": e.decisionId,
            "data-status": e.status,
            title: `${e.label}: ${WORD[e.status]}. Open it in the orders.`,
            "aria-label": `${e.label}: ${WORD[e.status]}`,
          },
          h("span", { class: "owe-mark", "aria-hidden": "true" }, MARK[e.status]),
          h("span", { class: "owe-label" }, e.label),
        );
        b.addEventListener("click", () => this.open(e.decisionId));
        this.list.append(h("li", {}, b));
        if (focused === e.decisionId) b.focus();
      }
    }
    this.deadlineUnix = deadlineUnix;
    this.paused = paused;
    this.tick();
    const want = deadlineUnix > 0;
    if (want && this.timer === undefined) this.timer = setInterval(() => this.tick(), 1000);
    if (!want && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  destroy(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    if (!this.deadlineUnix) {
      this.deadline.hidden = true;
      return;
    }
    const at = new Date(this.deadlineUnix * 1000);
    this.deadline.hidden = false;
    this.deadline.title = `The step closes at ${at.toLocaleString()}`;
    const time = at.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
    this.deadline.textContent = this.paused ? `Deadline ${time} (held while paused)` : `Closes ${time} (in ${countdown(this.deadlineUnix, Date.now())})`;
  }
}
