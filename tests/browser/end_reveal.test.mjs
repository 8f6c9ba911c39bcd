// Browser test against the real `galloper serve`: the umpire ends the game;
// every page shows the result, the revealed seed and "commitment verified"
// (SHA-256 of the seed and game id, computed in the page with WebCrypto,
// equal to the commitment shown since the start), and the commands that
// check every die. The history view steps through the events by turn and
// phase with their dice. A page opened after the end verifies too.
//
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import path from "node:path";
import { createDemoGame, env, loopbackOnly, onePerSide, openTable, screenshot, startHarness, umpireAct } from "./harness.mjs";

let harness;
before(async () => {
  harness = await startHarness("end_reveal");
});
after(async () => {
  await harness?.stop();
});

async function checkReveal(p, { gameId, commitment, result }) {
  const reveal = p.page.locator('[data-testid="reveal"]');
  await reveal.waitFor({ state: "visible", timeout: 15_000 });
  await p.page.waitForFunction(() => document.querySelector('[data-testid="reveal-verdict"]')?.dataset.state !== "checking", null, {
    timeout: 10_000,
  });
  const verdict = reveal.locator('[data-testid="reveal-verdict"]');
  assert.equal(await verdict.getAttribute("data-state"), "verified", `${p.seat}: ${await verdict.innerText()}`);
  assert.match(await verdict.innerText(), /Commitment verified/);
  const seed = await reveal.locator('[data-testid="reveal-seed"]').innerText();
  assert.match(seed, /^[0-9a-f]{64}$/, `${p.seat}: the seed is revealed`);
  assert.equal(await reveal.locator('[data-testid="reveal-commitment"]').innerText(), commitment, `${p.seat}: the commitment shown since the start`);
  // The same check outside the browser.
  const computed = createHash("sha256").update(Buffer.from(seed, "hex")).update(gameId, "utf8").digest("hex");
  assert.equal(computed, commitment, `${p.seat}: SHA-256(seed || game id) is the commitment`);
  if (result) assert.match(await reveal.locator('[data-testid="reveal-result"]').innerText(), new RegExp(result));
  const verify = await reveal.locator('[data-testid="cmd-verify"]').innerText();
  assert.match(verify, new RegExp(`galloper export .* ${gameId} `));
  assert.match(verify, /galloper verify /);
  assert.match(await reveal.locator('[data-testid="cmd-commitment"]').innerText(), /sha256sum/);
  return seed;
}

test("the umpire ends the game: every page shows the result, the seed and a verified commitment", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { organiser, invites, gameId, commitment } = await createDemoGame(browser, base, "End of game test", problems);
  assert.match(commitment, /^[0-9a-f]{64}$/, "the lobby shows the commitment");
  const umpireInvite = invites.find((i) => i.seat === "umpire");
  const [redInvite, blueInvite] = onePerSide(invites);
  const umpire = await openTable(browser, umpireInvite, problems, { context: organiser });
  const red = await openTable(browser, redInvite, problems);
  const blue = await openTable(browser, blueInvite, problems);
  for (const p of [umpire, red, blue]) {
    assert.equal(await p.page.locator('[data-testid="seed-commitment"]').textContent(), commitment, `${p.seat}: the commitment is shown`);
  }

  // A few forced steps, so there are events (and dice) to look back on.
  const stepsOpened = [];
  for (let i = 0; i < 3; i++) {
    const stepBefore = await umpire.page.evaluate(() => String(window.galloper.play.step));
    stepsOpened.push(stepBefore);
    const [state, text] = await umpireAct(umpire.page, { action: "forceResolve", reason: `step ${i + 1} for the test` });
    if (state !== "done") {
      console.log(`note: force resolve refused: ${text}`);
      break;
    }
    await umpire.page.waitForFunction((s) => String(window.galloper.play.step) !== s, stepBefore, { timeout: 15_000 });
  }

  // --- Rewind to the second step forced: the pages go back, told by a notice. ---
  if (stepsOpened.length >= 2) {
    const to = stepsOpened[1];
    const [state, text] = await umpireAct(umpire.page, { action: "rewind", reason: "a misread rule", toStep: to });
    if (state === "done") {
      for (const p of [red, blue]) {
        await p.page.locator('[data-testid="notice-latest"][data-kind="rewound"]').waitFor({ timeout: 10_000 });
        await p.page.waitForFunction((s) => String(window.galloper.play.step) === s, to, { timeout: 10_000 });
        const log = await p.page.evaluate(() => [...document.querySelectorAll('[data-testid="event-list"] li.event')].map((e) => e.dataset.sequence));
        assert.equal(new Set(log).size, log.length, `${p.seat}: no event twice after the rewind`);
      }
      assert.equal(await red.page.locator('[data-testid="orders-panel"]').getAttribute("data-step"), to, "the orders panel is back at that step");
      // Play goes on from there.
      const [s2, t2] = await umpireAct(umpire.page, { action: "forceResolve", reason: "replay the step" });
      assert.equal(s2, "done", t2);
      await red.page.waitForFunction((s) => String(window.galloper.play.step) !== s, to, { timeout: 15_000 });
    } else {
      assert.match(text, /^[A-Z_]+: /, `the server's refusal is shown: ${text}`);
      console.log(`note: rewind refused: ${text}`);
    }
  }

  // --- History: step through the turns and phases, dice shown. ---
  const events = await red.page.evaluate(() => window.galloper.play.events.length);
  if (events > 0) {
    await red.page.locator('[data-testid="history-toggle"]').click();
    const hist = red.page.locator('[data-testid="history"]');
    await hist.waitFor({ state: "visible" });
    const pages = await red.page.locator('[data-testid="history-page"] option').count();
    assert.ok(pages >= 1, "at least one turn/phase page");
    // Newest first shown; walk back to the first and forward again.
    let shownEvents = 0;
    let shownDice = 0;
    for (let i = pages - 1; i >= 0; i--) {
      const title = await red.page.locator('[data-testid="history-title"]').innerText();
      assert.match(title, new RegExp(`Turn .* \\(${i + 1} of ${pages}\\)`), `history page ${i + 1}: ${title}`);
      shownEvents += await hist.locator("li.event").count();
      shownDice += await hist.locator(".die").count();
      if (i > 0) await red.page.locator('[data-testid="history-prev"]').click();
    }
    assert.equal(await red.page.locator('[data-testid="history-prev"]').isDisabled(), true, "no page before the first");
    const held = await red.page.evaluate(() => ({
      events: window.galloper.play.events.length,
      dice: window.galloper.play.events.reduce((n, e) => n + e.dice.length, 0),
    }));
    assert.equal(shownEvents, held.events, "the history pages hold every event once");
    assert.equal(shownDice, held.dice, "and every die");
    await red.page.locator('[data-testid="history-next"]').click();
    await screenshot(red.page, "history");
    await red.page.locator('[data-testid="history-toggle"]').click();
  } else {
    console.log("note: no events after the forced steps; the history view was not exercised");
  }

  // --- Ending needs a result and a reason. ---
  let [state, text] = await umpireAct(umpire.page, { action: "endGame", reason: "time is up", result: "" });
  assert.equal(state, "refused");
  assert.match(text, /result/i);
  [state, text] = await umpireAct(umpire.page, { action: "endGame", reason: "time is up", result: "Drawn: both armies hold the field" });
  assert.equal(state, "done", text);

  const seeds = [];
  for (const p of [umpire, red, blue]) {
    await p.page.waitForFunction(() => window.galloper.life.ended, null, { timeout: 10_000 });
    seeds.push(await checkReveal(p, { gameId, commitment, result: "Drawn: both armies hold the field" }));
    await p.page.locator('[data-testid="notice-latest"][data-kind="ended"]').waitFor({ timeout: 5000 });
  }
  assert.equal(new Set(seeds).size, 1, "one seed for everyone");
  await screenshot(red.page, "reveal");

  // Closing the screen shows the table; the banner brings it back.
  await red.page.locator('[data-testid="reveal-close"]').click();
  await red.page.locator('[data-testid="reveal"]').waitFor({ state: "hidden" });
  await red.page.locator('[data-testid="show-reveal"]').click();
  await red.page.locator('[data-testid="reveal"]').waitFor({ state: "visible" });

  // After the end, the umpire console is refused with the server's reason.
  await umpire.page.locator('[data-testid="reveal-close"]').click();
  [state, text] = await umpireAct(umpire.page, { action: "pause", reason: "too late" });
  assert.equal(state, "refused");
  assert.match(text, /ended/);

  // A page opened after the end is shown the seed with its view, and verifies it too.
  const late = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await loopbackOnly(late);
  const latePage = await late.newPage();
  await latePage.goto(blueInvite.url);
  await latePage.locator('[data-testid="reveal"]').waitFor({ state: "visible", timeout: 15_000 });
  await checkReveal({ seat: "late blue", page: latePage }, { gameId, commitment });
  await latePage.screenshot({ path: path.join(env.artifacts, "end-reveal-late.png") });

  assert.deepEqual(problems, [], "no page errors or console errors");
  for (const p of [red, blue]) await p.context.close();
  await late.close();
  await organiser.close();
});
