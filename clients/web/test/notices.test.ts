import { describe, expect, it } from "vitest";
import type { NoticeItem } from "../src/game/life";
import { bannerNotices, noticeApplies, type NoticeNow } from "../src/game/notices";

let at = 0;
const n = (kind: string, openStep: bigint | null, step = 0n): NoticeItem => ({ kind, text: `${kind} text`, at: ++at, step, openStep });
const now = (openStep: bigint | null, extra: Partial<NoticeNow> = {}): NoticeNow => ({ openStep, paused: false, ended: false, ...extra });

describe("the banner's headline is the newest notice that still applies", () => {
  it("a notice from an earlier step folds away once another step is open", () => {
    const forced = n("forced", 4n);
    const shown = bannerNotices([forced], now(5n));
    expect(shown.headline).toBeNull();
    expect(shown.earlier).toEqual([{ notice: forced, applies: false }]);
    expect(bannerNotices([forced], now(4n)).headline).toBe(forced);
  });

  it("an older notice about the open step comes back as headline when the newest no longer applies", () => {
    const broadcast = n("broadcast", 6n);
    const defaulted = n("defaulted", 5n);
    // Received in that order across a step change: the newest is from step 5.
    const shown = bannerNotices([broadcast, defaulted], now(6n));
    expect(shown.headline).toBe(broadcast);
    expect(shown.earlier.map((e) => e.notice)).toEqual([defaulted]);
  });

  it("a pause applies only while the game is paused; a resume replaces it", () => {
    const paused = n("paused", 3n);
    expect(noticeApplies(paused, now(3n, { paused: true }))).toBe(true);
    expect(noticeApplies(paused, now(3n))).toBe(false);
    const resumed = n("resumed", 3n);
    const shown = bannerNotices([paused, resumed], now(3n));
    expect(shown.headline).toBe(resumed);
    expect(shown.earlier).toEqual([{ notice: paused, applies: false }]);
  });

  it("a newer deadline replaces the older", () => {
    const first = n("deadline", 2n);
    const second = n("deadline", 2n);
    const chat = n("broadcast", 2n);
    expect(noticeApplies(first, now(2n), [second, chat])).toBe(false);
    expect(bannerNotices([first, second, chat], now(2n)).earlier).toEqual([
      { notice: second, applies: true },
      { notice: first, applies: false },
    ]);
  });

  it("a rewind's notice heads the banner before and after the view of the step it opens", () => {
    const rewound = n("rewound", 9n, 6n);
    expect(noticeApplies(rewound, now(9n))).toBe(true);
    expect(noticeApplies(rewound, now(6n))).toBe(true);
    expect(noticeApplies(rewound, now(7n))).toBe(false);
  });

  it("the end always heads the banner, and nothing before it applies", () => {
    const broadcast = n("broadcast", 8n);
    const ended = n("ended", 8n);
    expect(bannerNotices([ended, broadcast], now(8n, { ended: true })).headline).toBe(ended);
  });

  it("with no step known yet every notice applies", () => {
    const b = n("bot_seat", null);
    expect(bannerNotices([b], now(null)).headline).toBe(b);
    expect(bannerNotices([b], now(3n)).headline).toBe(b);
  });
});
