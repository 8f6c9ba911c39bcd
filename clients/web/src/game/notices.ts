// Which of the notices the page received still applies, for the banner's
// headline (pure).
//
// The rule:
//  * "ended" always applies, and once the game has ended nothing else does.
//  * "paused" applies only while the game is paused (a "resumed" came since,
//    or a view says play goes on: it no longer does).
//  * Every other notice is about the step it came in: the step it names
//    (GameNotice.step, e.g. the step a rewind opened again) or the step that
//    was open when the page received it. Once another step is open it is from
//    an earlier step and no longer applies. (A rewind's notice can come just
//    before the view of the step it opens: both steps count as its own.)
//  * A notice of a kind that replaces the one before (a deadline, a pause or
//    resume) no longer applies once a newer one of that kind came.
// The headline is the newest notice that applies; every other notice folds
// away under "Earlier notices", newest first. With none that applies there
// is no headline.
import type { NoticeItem } from "./life";

export interface NoticeNow {
  // The step open now (null: not known yet).
  openStep: bigint | null;
  paused: boolean;
  ended: boolean;
}

// Kinds whose newer notice replaces the older (the later word stands).
const REPLACES: Record<string, string> = { deadline: "deadline", paused: "pause", resumed: "pause" };

export function noticeApplies(n: NoticeItem, now: NoticeNow, later: readonly NoticeItem[] = []): boolean {
  if (n.kind === "ended") return true;
  if (now.ended) return false;
  if (n.kind === "paused" && !now.paused) return false;
  const family = REPLACES[n.kind];
  if (family && later.some((m) => REPLACES[m.kind] === family)) return false;
  if (now.openStep === null) return true;
  const own = [n.step, n.openStep].filter((s): s is bigint => s !== null && s !== undefined && s !== 0n);
  return own.length === 0 || own.includes(now.openStep);
}

export interface BannerNotices {
  headline: NoticeItem | null;
  // Newest first; `applies` false for those that no longer apply.
  earlier: { notice: NoticeItem; applies: boolean }[];
}

export function bannerNotices(notices: readonly NoticeItem[], now: NoticeNow): BannerNotices {
  const applies = notices.map((n, i) => noticeApplies(n, now, notices.slice(i + 1)));
  let head = -1;
  for (let i = notices.length - 1; i >= 0; i--) {
    if (applies[i]) {
      head = i;
      break;
    }
  }
  const earlier: BannerNotices["earlier"] = [];
  for (let i = notices.length - 1; i >= 0; i--) if (i !== head) earlier.push({ notice: notices[i]!, applies: applies[i]! });
  return { headline: head >= 0 ? notices[head]! : null, earlier };
}
