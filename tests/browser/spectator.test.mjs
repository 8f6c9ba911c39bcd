// Browser test of the spectators' page against the real `galloper serve`,
// opened from the spectators' link the lobby shows apart from the seats
// (GameCreated.spectators).
//
// Spectators are sent no SeatStatus and no decisions (see SeatStatus in
// protocol.proto): per step only the StepResolved. The page must still show
// the table and say what it shows — never "Waiting for the server…":
//
//  * live (delay 0): the view's step in the header, and each step the umpire
//    forces arrives with the same events the umpire's page gets;
//  * one turn late: turn 1 as it began, and plainly that nothing since can
//    be shown yet and when the game starts for spectators; once the players
//    reach turn 3, turn 1's events and the table as turn 2 began; when the
//    umpire ends the game, everything (the page catches up on what the
//    server held back);
//  * one turn late in a game that ends by itself (the two-turn test scenario):
//    the whole game once it has ended, not only its last step's events.
//
// Screenshots: spectator-live, spectator-delayed-waiting, spectator-delayed.
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  FIRE_AND_COMBAT,
  createDemoGame,
  createUploadedGame,
  loopbackOnly,
  openTable,
  screenshot,
  socketPaths,
  startHarness,
  umpireAct,
  watchPage,
} from "./harness.mjs";

let harness;
before(async () => {
  harness = await startHarness("spectator");
});
after(async () => {
  await harness?.stop();
});

const headerStep = (page) => page.locator('[data-field="step"] strong').innerText();
const note = (page) => page.locator('[data-testid="seats-bar"] [data-testid="spectator-note"]');
const events = (page) => page.evaluate(() => window.galloper.play.events.map((e) => `${e.turn}|${e.kind}|${e.text}`));
const viewOf = (page) =>
  page.evaluate(() => {
    const v = window.galloper.lastView;
    return { turn: v.turn, step: String(v.step), ended: v.ended, delayed: v.delayedTurns, deadline: String(v.deadlineUnix) };
  });

// The spectators' page, opened from the lobby's spectators' link; returns it
// once it shows the table and has caught up.
async function openSpectator(browser, invites, problems, gameId) {
  const invite = invites.find((i) => i.seat === "spectator");
  assert.ok(invite, `the lobby shows the spectators' link (${invites.map((i) => i.seat).join(", ")})`);
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await loopbackOnly(ctx);
  const page = await ctx.newPage();
  const sockets = socketPaths(page);
  watchPage(page, "spectator", problems);
  await page.goto(invite.url);
  await page.locator('svg[data-testid="table-map"] g.unit').first().waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => window.galloper && window.galloper.lastView && !window.galloper.life.syncing, null, { timeout: 10_000 });
  assert.deepEqual(sockets, [`/ws/games/${gameId}`], "the spectators' page connects for its game");
  // Never "Waiting for the server…": spectators have nothing to answer and are told so.
  assert.equal(await page.locator('[data-testid="orders-headline"]').innerText(), "Spectators watch: there is nothing to answer.");
  assert.equal(await page.locator('[data-testid="orders-panel"]').getAttribute("data-state"), "watching");
  assert.equal(await page.locator('[data-testid="seats-bar"] li[data-seat]').count(), 0, "no seat chips");
  assert.equal(await page.locator('[data-testid="chat-send"]').isVisible(), false, "spectators read the chat, they do not write");
  return { ctx, page };
}

async function forceUntil(umpirePage, done, what, limit = 60) {
  for (let i = 0; i < limit; ++i) {
    if (await done()) return;
    const before = await umpirePage.evaluate(() => String(window.galloper.lastView.step));
    const [state, text] = await umpireAct(umpirePage, { action: "forceResolve", reason: `towards ${what}` });
    assert.equal(state, "done", text);
    // The forced step's result reaches the page before the next look (the
    // game may have ended with it, and the end covers the console).
    await umpirePage.waitForFunction(
      (b) => String(window.galloper.lastView.step) !== b || window.galloper.lastView.ended || window.galloper.life.ended,
      before,
      { timeout: 15_000 },
    );
  }
  assert.ok(await done(), `reached ${what} within ${limit} forced steps`);
}

test("live spectators follow every step with the umpire's events", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { organiser, invites, gameId } = await createDemoGame(browser, base, "Spectators live", problems, { spectatorDelayTurns: "0" });
  assert.ok(!invites.slice(0, -1).some((i) => i.seat === "spectator"), "the spectators' link is listed after the seats, apart");
  const umpire = await openTable(browser, invites.find((i) => i.seat === "umpire"), problems, { context: organiser });
  const { ctx, page } = await openSpectator(browser, invites, problems, gameId);

  assert.equal((await note(page).getAttribute("data-shown")), "live");
  assert.match(await note(page).innerText(), /Watching live\. Spectators are not shown who is answering\./);
  assert.equal(await headerStep(page), (await viewOf(page)).step, "the header shows the view's step");
  assert.equal((await viewOf(page)).delayed, 0);

  for (let i = 0; i < 4; ++i) {
    const before = (await viewOf(page)).step;
    const [state, text] = await umpireAct(umpire.page, { action: "forceResolve", reason: `step ${i + 1} for the test` });
    assert.equal(state, "done", text);
    await page.waitForFunction((b) => window.galloper.lastView.step > BigInt(b), before, { timeout: 10_000 });
    const v = await viewOf(page);
    assert.equal(await headerStep(page), v.step, `step ${i + 1}: the header follows the view`);
    assert.equal(v.deadline, "0", "a spectator's view carries no deadline");
    assert.equal(await page.evaluate(() => window.galloper.play.seatStatusStep), null, "no SeatStatus reached the page");
  }
  await umpire.page.waitForFunction((s) => String(window.galloper.lastView.step) === s, (await viewOf(page)).step, { timeout: 10_000 });
  const seen = await events(page);
  assert.ok(seen.length > 0, "the spectator saw the forced steps' events");
  assert.ok(seen.some((e) => e.startsWith("1|")), "turn 1's events among them");
  assert.deepEqual(seen, await events(umpire.page), "the same events as the umpire's page (spectators see as the umpire)");
  assert.equal(await page.locator('[data-testid="event-list"] li.event').count(), seen.length, "every event in the log");
  await screenshot(page, "spectator-live");
  assert.deepEqual(problems, []);
  await ctx.close();
  await organiser.close();
});

test("spectators one turn late: turn 1 as it began, then turn 1's events, then everything at the end", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { organiser, invites, gameId } = await createDemoGame(browser, base, "Spectators one turn late", problems, { spectatorDelayTurns: "1" });
  const umpire = await openTable(browser, invites.find((i) => i.seat === "umpire"), problems, { context: organiser });
  const { ctx, page } = await openSpectator(browser, invites, problems, gameId);
  const liveTurn = () => umpire.page.evaluate(() => window.galloper.lastView.turn);

  // Nothing can be shown yet: the page says why, and from when.
  let v = await viewOf(page);
  assert.deepEqual([v.turn, v.delayed, v.deadline], [1, 1, "0"]);
  assert.equal(await note(page).getAttribute("data-shown"), "waiting");
  assert.match(await note(page).innerText(), /Spectators watch 1 turn late: the table is shown as turn 1 began, and nothing since can be shown yet\. The game starts for spectators when the players reach turn 3\./);
  assert.equal((await events(page)).length, 0);
  await screenshot(page, "spectator-delayed-waiting");

  // Turn 2 for the players: still nothing of turn 1 for spectators.
  await forceUntil(umpire.page, async () => (await liveTurn()) >= 2, "turn 2");
  await page.waitForTimeout(300);
  assert.equal((await viewOf(page)).turn, 1);
  assert.equal((await events(page)).length, 0, "turn 1's events are held back while the players play turn 2");

  // Turn 3 for the players: spectators get turn 1's events and turn 2 as it began.
  await forceUntil(umpire.page, async () => (await liveTurn()) >= 3, "turn 3");
  await page.waitForFunction(() => window.galloper.lastView.turn === 2, null, { timeout: 10_000 });
  const turn1 = (await events(umpire.page)).filter((e) => e.startsWith("1|"));
  await page.waitForFunction((n) => window.galloper.play.events.length >= n, turn1.length, { timeout: 10_000 });
  assert.deepEqual(await events(page), turn1, "every event of turn 1, as the umpire saw them, and nothing later");
  assert.equal(await note(page).getAttribute("data-shown"), "late");
  assert.match(await note(page).innerText(), /the table is shown as turn 2 began; turn 2's events come when the players reach turn 4/);
  assert.equal(await page.locator('[data-testid="event-list"] li.event').count(), turn1.length);
  await screenshot(page, "spectator-delayed");

  // The umpire ends the game: everything, at once.
  const [state, text] = await umpireAct(umpire.page, { action: "endGame", reason: "time is up", result: "a draw" });
  assert.equal(state, "done", text);
  await page.waitForFunction(() => window.galloper.lastView.ended && !window.galloper.life.syncing, null, { timeout: 10_000 });
  const all = await events(umpire.page);
  await page.waitForFunction((n) => window.galloper.play.events.length >= n, all.length, { timeout: 10_000 });
  assert.deepEqual(await events(page), all, "at the end the spectator has every event the umpire has");
  assert.equal(await note(page).getAttribute("data-shown"), "ended");
  assert.equal((await viewOf(page)).turn, await liveTurn());
  assert.deepEqual(problems, []);
  await ctx.close();
  await organiser.close();
});

test("spectators one turn late in a game that ends by itself get the whole game", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { organiser, invites, gameId } = await createUploadedGame(browser, base, FIRE_AND_COMBAT, "Short game, watched late", problems, {
    spectatorDelayTurns: "1",
  });
  const umpire = await openTable(browser, invites.find((i) => i.seat === "umpire"), problems, { context: organiser });
  const { ctx, page } = await openSpectator(browser, invites, problems, gameId);
  await forceUntil(umpire.page, () => umpire.page.evaluate(() => window.galloper.lastView.ended || window.galloper.life.ended), "the end", 80);
  await page.waitForFunction(() => window.galloper.lastView.ended && !window.galloper.life.syncing, null, { timeout: 10_000 });
  const all = await events(umpire.page);
  await page.waitForFunction((n) => window.galloper.play.events.length >= n, all.length, { timeout: 10_000 });
  assert.deepEqual(await events(page), all, "every event of the game, turn 1's included, not only the last step's");
  assert.equal(await page.evaluate(() => String(window.galloper.life.lastSequence)), String(all.length));
  assert.deepEqual(problems, []);
  await ctx.close();
  await organiser.close();
});
