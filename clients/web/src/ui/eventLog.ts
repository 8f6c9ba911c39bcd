// The event log: what this seat saw happen, step after step, newest at the
// bottom; every die as a small face; subjects select their unit on the map.
// "History" steps through the same events a turn and phase at a time.
import type { DieRoll, Event, GameView } from "@gen/galloper/v1/game_pb";
import { historyPages, pageIndex, pageTitle, type HistoryPage } from "../game/history";
import { clear, h, s } from "./dom";

export class EventLog {
  readonly root: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly empty: HTMLElement;
  private shown = 0;
  private readonly live: HTMLElement;
  private readonly history: HTMLElement;
  private readonly historyTitle: HTMLElement;
  private readonly historyList: HTMLOListElement;
  private readonly prev: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private readonly toggle: HTMLButtonElement;
  private readonly pageSelect: HTMLSelectElement;
  private mode: "live" | "history" = "live";
  private pages: HistoryPage[] = [];
  private pageKey: string | null = null;
  private events: readonly Event[] = [];
  private view: GameView | null = null;

  constructor(private readonly selectSubject: (unitId: string) => void) {
    this.list = h("ol", { class: "event-list", "data-testid": "event-list" });
    this.empty = h("p", { class: "muted" }, "No events yet: they appear here as steps resolve.");
    this.live = h("div", { class: "event-scroll", tabindex: 0, role: "log", "aria-label": "Event log", "aria-live": "polite" }, this.list);
    this.toggle = h("button", { type: "button", class: "small", "aria-pressed": "false", "data-testid": "history-toggle" }, "History");
    this.toggle.addEventListener("click", () => this.setMode(this.mode === "live" ? "history" : "live"));
    this.prev = h("button", { type: "button", class: "small", "data-testid": "history-prev", "aria-label": "Earlier turn or phase" }, "◀");
    this.next = h("button", { type: "button", class: "small", "data-testid": "history-next", "aria-label": "Later turn or phase" }, "▶");
    this.prev.addEventListener("click", () => this.step(-1));
    this.next.addEventListener("click", () => this.step(1));
    this.pageSelect = h("select", { "data-testid": "history-page", "aria-label": "Turn and phase" });
    this.pageSelect.addEventListener("change", () => {
      this.pageKey = this.pageSelect.value;
      this.renderHistory();
    });
    this.historyTitle = h("p", { class: "history-title", "data-testid": "history-title" });
    this.historyList = h("ol", { class: "event-list", "data-testid": "history-list" });
    this.history = h(
      "div",
      { class: "history", hidden: true, "data-testid": "history" },
      h("div", { class: "history-nav" }, this.prev, this.pageSelect, this.next),
      this.historyTitle,
      h("div", { class: "event-scroll", tabindex: 0 }, this.historyList),
    );
    this.root = h(
      "section",
      { class: "event-log", "aria-labelledby": "events-title", "data-testid": "event-log" },
      h("div", { class: "card-head" }, h("h2", { id: "events-title" }, "Events"), this.toggle),
      this.empty,
      this.live,
      this.history,
    );
  }

  setMode(mode: "live" | "history"): void {
    this.mode = mode;
    this.toggle.setAttribute("aria-pressed", String(mode === "history"));
    this.toggle.textContent = mode === "history" ? "Back to live" : "History";
    this.live.hidden = mode !== "live";
    this.history.hidden = mode !== "history";
    this.root.dataset.mode = mode;
    if (mode === "history") this.renderHistory();
  }

  private step(delta: number): void {
    const i = pageIndex(this.pages, this.pageKey) + delta;
    const p = this.pages[Math.max(0, Math.min(this.pages.length - 1, i))];
    if (p) this.pageKey = p.key;
    this.renderHistory();
  }

  private renderHistory(): void {
    this.pages = historyPages(this.events);
    const i = pageIndex(this.pages, this.pageKey);
    const page = this.pages[i];
    this.prev.disabled = i <= 0;
    this.next.disabled = i < 0 || i >= this.pages.length - 1;
    clear(this.pageSelect);
    for (const p of this.pages) this.pageSelect.append(h("option", { value: p.key }, pageTitle(p)));
    clear(this.historyList);
    if (!page) {
      this.historyTitle.textContent = "Nothing has happened yet.";
      return;
    }
    this.pageSelect.value = page.key;
    this.history.dataset.page = page.key;
    this.historyTitle.textContent = `${pageTitle(page)} — ${page.events.length} event(s), ${page.dice} dice (${i + 1} of ${this.pages.length})`;
    for (const e of page.events) this.historyList.append(this.item(e, this.view));
  }

  // Appends the events not shown yet (the list only grows).
  render(events: readonly Event[], view: GameView | null): void {
    const changed = events !== this.events;
    this.events = events;
    this.view = view;
    if (changed && this.mode === "history") this.renderHistory();
    if (events.length < this.shown) {
      this.list.replaceChildren();
      this.shown = 0;
    }
    if (events.length === this.shown) return;
    const scroller = this.list.parentElement!;
    const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 24;
    let lastStep = this.shown > 0 ? events[this.shown - 1]!.step : -1n;
    for (const e of events.slice(this.shown)) {
      if (e.step !== lastStep) {
        this.list.append(h("li", { class: "event-step", "aria-hidden": "true" }, `Step ${e.step}`));
        lastStep = e.step;
      }
      this.list.append(this.item(e, view));
    }
    this.shown = events.length;
    this.empty.hidden = true;
    if (atBottom) scroller.scrollTop = scroller.scrollHeight;
  }

  private item(e: Event, view: GameView | null): HTMLLIElement {
    const meta = [e.turn ? `T${e.turn}` : "", e.phase, e.kind].filter(Boolean).join(" · ");
    const subjects = e.subjects.map((id) => {
      const name = view?.units.find((u) => u.id === id)?.name;
      const b = h("button", { type: "button", class: "subject link", "data-subject-id": id, title: `Show ${name || id} on the map` }, name || id);
      b.addEventListener("click", () => this.selectSubject(id));
      return b;
    });
    return h(
      "li",
      {
        class: `event${e.isPublic ? " public" : ""}`,
        "data-sequence": String(e.sequence),
        "data-kind": e.kind,
        "data-step": String(e.step),
      },
      h("span", { class: "event-meta muted" }, meta),
      h("span", { class: "event-text" }, e.text),
      e.dice.length ? h("span", { class: "dice", "aria-label": `Dice: ${e.dice.map(dieText).join(", ")}` }, ...e.dice.map(dieFace)) : null,
      subjects.length ? h("span", { class: "event-subjects" }, ...subjects) : null,
    );
  }
}

export function dieText(d: DieRoll): string {
  return `${d.kind || "die"} ${d.face}`;
}

// Pip positions on a 10x10 face for 1..6.
const PIPS: Record<number, [number, number][]> = {
  1: [[5, 5]],
  2: [[2.8, 2.8], [7.2, 7.2]],
  3: [[2.8, 2.8], [5, 5], [7.2, 7.2]],
  4: [[2.8, 2.8], [7.2, 2.8], [2.8, 7.2], [7.2, 7.2]],
  5: [[2.8, 2.8], [7.2, 2.8], [5, 5], [2.8, 7.2], [7.2, 7.2]],
  6: [[2.8, 2.5], [7.2, 2.5], [2.8, 5], [7.2, 5], [2.8, 7.5], [7.2, 7.5]],
};

// A die as a small face: pips for six-sided and average dice showing 1..6,
// the number otherwise; the kind underneath.
export function dieFace(d: DieRoll): HTMLElement {
  const pips = (d.kind === "d6" || d.kind === "average") && PIPS[d.face];
  const face = pips
    ? s(
        "svg",
        { viewBox: "0 0 10 10", width: 22, height: 22, "aria-hidden": "true", class: "die-svg" },
        s("rect", { x: 0.5, y: 0.5, width: 9, height: 9, rx: 1.8, class: "die-body" }),
        ...pips.map(([x, y]) => s("circle", { cx: x, cy: y, r: 1.05, class: "die-pip" })),
      )
    : h("span", { class: "die-number", "aria-hidden": "true" }, String(d.face));
  return h(
    "span",
    {
      class: `die die-${(d.kind || "die").replace(/[^a-z0-9]/gi, "")}`,
      title: `${d.kind || "die"}${d.sides ? ` (${d.sides} sides)` : ""}: ${d.face}`,
      "data-kind": d.kind,
      "data-face": d.face,
    },
    face,
    h("span", { class: "die-kind", "aria-hidden": "true" }, d.kind === "average" ? "avg" : d.kind || "die"),
  );
}
