// The banner above the seats bar: whether the game is paused, the step's
// deadline counting down, and the newest notice the server pushed that still
// applies (pauses, deadlines, defaults, broadcasts, the end, a rewind; the
// rule is in game/notices.ts), with every other one folded underneath.
import { NOTICE_TITLE, countdown, type LifeState, type NoticeItem } from "../game/life";
import { bannerNotices } from "../game/notices";
import { clear, h } from "./dom";

export class NoticeBanner {
  readonly root: HTMLElement;
  private readonly paused: HTMLElement;
  private readonly deadline: HTMLElement;
  private readonly latest: HTMLElement;
  private readonly earlier: HTMLDetailsElement;
  private readonly earlierList: HTMLOListElement;
  private readonly earlierSummary: HTMLElement;
  private readonly endButton: HTMLButtonElement;
  private life: LifeState | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(showReveal: () => void) {
    this.paused = h("span", { class: "flag flag-paused", "data-testid": "paused-flag", hidden: true }, "Paused");
    this.deadline = h("span", { class: "flag flag-deadline", "data-testid": "deadline-countdown", hidden: true });
    this.latest = h("span", { class: "notice-latest", "data-testid": "notice-latest" });
    this.earlierList = h("ol", { class: "notice-earlier", "data-testid": "notice-list" });
    this.earlierSummary = h("summary", {}, "Earlier notices");
    this.earlier = h("details", { class: "notice-more", hidden: true }, this.earlierSummary, this.earlierList);
    this.endButton = h("button", { type: "button", class: "small", hidden: true, "data-testid": "show-reveal" }, "Result and dice check");
    this.endButton.addEventListener("click", showReveal);
    this.root = h(
      "section",
      { class: "notice-banner", "data-testid": "notice-banner", "aria-label": "Game notices", role: "status", "aria-live": "polite", hidden: true },
      this.paused,
      this.deadline,
      this.latest,
      this.endButton,
      this.earlier,
    );
  }

  // `openStep`: the step open now, which a notice must be about to head the banner.
  render(life: LifeState, openStep: bigint | null = null): void {
    this.life = life;
    this.paused.hidden = !life.paused || life.ended;
    this.endButton.hidden = !life.ended;
    this.root.dataset.paused = String(life.paused);
    this.root.dataset.ended = String(life.ended);
    const shown = bannerNotices(life.notices, { openStep, paused: life.paused, ended: life.ended });
    const last = shown.headline;
    clear(this.latest);
    this.latest.hidden = !last;
    if (last) {
      this.latest.dataset.kind = last.kind;
      this.latest.append(noticeLine(last));
    } else {
      delete this.latest.dataset.kind;
    }
    clear(this.earlierList);
    for (const { notice: n, applies } of shown.earlier) {
      this.earlierList.append(
        h("li", { "data-kind": n.kind, "data-applies": String(applies) }, noticeLine(n), applies ? null : h("span", { class: "muted notice-stale" }, " (no longer applies)")),
      );
    }
    this.earlierSummary.textContent = last ? `Earlier notices (${shown.earlier.length})` : `Notices (${shown.earlier.length}), none about this step`;
    this.earlier.hidden = shown.earlier.length === 0;
    this.tick();
    // A countdown ticks only while there is a deadline to count to.
    const want = life.deadlineUnix > 0 && !life.ended;
    if (want && this.timer === undefined) this.timer = setInterval(() => this.tick(), 1000);
    if (!want && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    this.root.hidden = life.notices.length === 0 && !life.paused && !life.deadlineUnix && !life.ended;
  }

  destroy(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const life = this.life;
    if (!life || !life.deadlineUnix || life.ended) {
      this.deadline.hidden = true;
      return;
    }
    const left = countdown(life.deadlineUnix, Date.now());
    const at = new Date(life.deadlineUnix * 1000).toLocaleString();
    this.deadline.hidden = false;
    this.deadline.dataset.deadlineUnix = String(life.deadlineUnix);
    this.deadline.title = `The step closes at ${at}`;
    this.deadline.textContent = life.paused ? `Deadline held while paused (${left})` : `Step closes in ${left}`;
  }
}

function noticeLine(n: NoticeItem): DocumentFragment {
  const f = document.createDocumentFragment();
  f.append(
    h("strong", { class: "notice-kind" }, NOTICE_TITLE[n.kind] ?? n.kind),
    " ",
    h("span", { class: "notice-text" }, n.text),
    " ",
    h("time", { class: "muted notice-time", datetime: new Date(n.at).toISOString() }, new Date(n.at).toLocaleTimeString()),
  );
  return f;
}
