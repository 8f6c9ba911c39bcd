// Browser test of a spectator's page against the real `galloper serve`.
// Spectators are sent no SeatStatus (see SeatStatus in protocol.proto): per
// step only the StepResolved. The page must still follow the game: the
// header's step is the view's (the step now open), the seats bar says that
// spectators are not shown who is answering (not "Waiting for the server…"
// for ever), and each step the umpire forces moves the spectator's page on,
// with the events it may see.
//
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createDemoGame, loopbackOnly, openTable, startHarness, umpireAct, watchPage } from "./harness.mjs";

let harness;
before(async () => {
  harness = await startHarness("spectator");
});
after(async () => {
  await harness?.stop();
});

const STEPS = 3;

const headerStep = (page) => page.locator('[data-field="step"] strong').innerText();

test("a spectator's page follows the steps without seat status", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { organiser, invites } = await createDemoGame(browser, base, "Spectator test", problems);
  const umpireInvite = invites.find((i) => i.seat === "umpire");
  const spectatorInvite = invites.find((i) => i.seat === "spectator");
  assert.ok(umpireInvite && spectatorInvite, `umpire and spectator invites: ${invites.map((i) => i.seat).join(", ")}`);
  const umpire = await openTable(browser, umpireInvite, problems, { context: organiser });

  // openTable waits for a seat status, which a spectator never gets.
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await loopbackOnly(ctx);
  const page = await ctx.newPage();
  watchPage(page, "spectator", problems);
  await page.goto(spectatorInvite.url);
  await page.locator('svg[data-testid="table-map"] g.unit').first().waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => window.galloper && window.galloper.lastView && !window.galloper.life.syncing, null, {
    timeout: 10_000,
  });

  const note = page.locator('[data-testid="seats-bar"] [data-testid="spectator-note"]');
  assert.match(await note.innerText(), /spectators are not shown who is answering/);
  assert.equal(await page.locator('[data-testid="seats-bar"] li[data-seat]').count(), 0, "no seat chips");
  const first = await page.evaluate(() => String(window.galloper.lastView.step));
  assert.equal(await headerStep(page), first, "the header shows the view's step");

  for (let i = 0; i < STEPS; ++i) {
    const before = await page.evaluate(() => window.galloper.lastView.step);
    const [state, text] = await umpireAct(umpire.page, { action: "forceResolve", reason: `step ${i + 1} for the test` });
    assert.equal(state, "done", text);
    await page.waitForFunction((b) => window.galloper.lastView.step > BigInt(b), String(before), { timeout: 10_000 });
    const now = await page.evaluate(() => String(window.galloper.lastView.step));
    assert.equal(await headerStep(page), now, `step ${i + 1}: the header follows the view`);
    assert.equal(await page.evaluate(() => window.galloper.play.seatStatusStep), null, "no SeatStatus reached the page");
    assert.match(await note.innerText(), /spectators are not shown who is answering/);
  }
  const events = await page.evaluate(() => window.galloper.play.events.length);
  assert.ok(events > 0, "the spectator saw the forced steps' events");
  assert.deepEqual(problems, []);
  await ctx.close();
});
