// Browser test against the real `galloper serve`: the umpire console (pause
// seen on a player's page, broadcast, the audit trail), what a player may and
// may not do from it (the server's typed errors shown as sent; a blank reason
// refused in the page and by the server), the settings chosen on create shown
// on the game page, and chat between two pages (a side's channel never
// reaches the other side).
//
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createDemoGame, onePerSide, openTable, screenshot, startHarness, umpireAct } from "./harness.mjs";

let harness;
before(async () => {
  harness = await startHarness("umpire_chat");
});
after(async () => {
  await harness?.stop();
});

const shot = (page, name) => screenshot(page, `umpire-${name}`);
const bannerText = (page) => page.locator('[data-testid="notice-banner"]').innerText();
const chatTexts = (page) => page.locator('[data-testid="chat-list"] .chat-text').allInnerTexts();

async function waitBanner(page, kind, includes) {
  await page.waitForFunction(
    ([k, t]) => {
      const el = document.querySelector('[data-testid="notice-latest"]');
      return el && el.dataset.kind === k && el.textContent.includes(t);
    },
    [kind, includes],
    { timeout: 10_000 },
  );
}

async function sendChat(page, channelKey, text, toSeat) {
  await page.locator('[data-testid="chat-channel"]').selectOption(channelKey);
  if (toSeat) await page.locator('[data-testid="chat-to-seat"]').fill(toSeat);
  await page.locator('[data-testid="chat-text"]').fill(text);
  await page.locator('[data-testid="chat-send"]').click();
  await page.waitForFunction((t) => [...document.querySelectorAll('[data-testid="chat-list"] .chat-text')].some((e) => e.textContent === t), text, {
    timeout: 10_000,
  });
}

test("umpire console, player limits, settings and chat", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { organiser, invites } = await createDemoGame(browser, base, "Umpire and chat test", problems, {
    mode: "simultaneous",
    stepDeadlineMinutes: "45",
    maxPlayerPauses: "1",
    maxPauseMinutes: "10",
  });
  const umpireInvite = invites.find((i) => i.seat === "umpire");
  const [redInvite, blueInvite] = onePerSide(invites);
  assert.ok(umpireInvite && redInvite && blueInvite, `umpire and two sides: ${invites.map((i) => i.seat).join(", ")}`);

  // The umpire opens in the organiser's browser (which created the game).
  const umpire = await openTable(browser, umpireInvite, problems, { context: organiser });
  const red = await openTable(browser, redInvite, problems);
  const blue = await openTable(browser, blueInvite, problems);

  // --- Settings in force, and the deadline counting down. ---
  const settings = umpire.page.locator('[data-testid="settings-list"]');
  assert.equal(await settings.locator('[data-setting="deadline"]').textContent(), "45 min", "the step deadline chosen on create");
  assert.equal(await settings.locator('[data-setting="pauses"]').textContent(), "1 each, up to 10 min");
  assert.match(await settings.locator('[data-setting="mode"]').textContent(), /Simultaneous/);
  for (const p of [umpire, red, blue]) {
    const cd = p.page.locator('[data-testid="deadline-countdown"]');
    await cd.waitFor({ timeout: 10_000 });
    assert.match(await cd.innerText(), /Step closes in (4\d|3\d) min/, `${p.seat}: the 45-minute deadline counts down`);
  }

  // --- The console by role. ---
  assert.equal(await umpire.page.locator('[data-testid="umpire-console"]').getAttribute("data-role"), "umpire");
  const playerActions = await red.page.locator('[data-testid="umpire-action"] option').evaluateAll((els) => els.map((e) => e.value));
  assert.deepEqual(playerActions, ["pause", "resume"], "a player's console offers pause and resume only");
  assert.equal(await red.page.locator('[data-testid="audit-table"]').isVisible(), false, "players have no audit table");

  // --- A blank reason is refused in the page (nothing sent) ... ---
  let [state, text] = await umpireAct(umpire.page, { action: "pause", reason: "   " });
  assert.equal(state, "refused");
  assert.match(text, /reason/i);
  // ... and by the server, for a client that sends one anyway.
  const serverSays = await red.page.evaluate(async () => {
    const g = window.galloper;
    try {
      await g.client.umpireAction(g.gameId, "", { case: "pause", value: {} });
      return "accepted";
    } catch (e) {
      return e.describe();
    }
  });
  assert.match(serverSays, /^INVALID_ARGUMENT: .*reason/, `the server refuses a blank reason: ${serverSays}`);

  // --- A player pressing force resolve (a tampered console) gets PERMISSION_DENIED, shown. ---
  await red.page.locator('[data-testid="umpire-action"]').evaluate((sel) => sel.append(new Option("Force resolve", "forceResolve")));
  [state, text] = await umpireAct(red.page, { action: "forceResolve", reason: "I am bored" });
  assert.equal(state, "refused");
  assert.match(text, /^PERMISSION_DENIED: only the umpire may force a step/, `the server's error as sent: ${text}`);

  // --- The umpire pauses: every player's page says so. ---
  [state, text] = await umpireAct(umpire.page, { action: "pause", reason: "tea break" });
  assert.equal(state, "done", text);
  for (const p of [red, blue]) {
    await waitBanner(p.page, "paused", "tea break");
    await p.page.locator('[data-testid="paused-flag"]').waitFor({ state: "visible", timeout: 5000 });
  }
  await shot(red.page, "paused-red");

  // A player may not resume the umpire's pause.
  [state, text] = await umpireAct(blue.page, { action: "resume", reason: "ready" });
  assert.equal(state, "refused");
  assert.match(text, /^PERMISSION_DENIED: only the umpire or the seat that paused may resume/, text);

  // --- Broadcast, then resume. ---
  [state, text] = await umpireAct(umpire.page, { action: "broadcast", reason: "weather", text: "Rain: muskets fire at -1 this turn" });
  assert.equal(state, "done", text);
  for (const p of [red, blue]) await waitBanner(p.page, "broadcast", "Rain: muskets fire at -1 this turn");
  [state, text] = await umpireAct(umpire.page, { action: "resume", reason: "tea is over" });
  assert.equal(state, "done", text);
  for (const p of [red, blue]) {
    await waitBanner(p.page, "resumed", "tea is over");
    await p.page.locator('[data-testid="paused-flag"]').waitFor({ state: "hidden", timeout: 5000 });
  }

  // A player takes the one pause allowed, resumes it, and is refused a second.
  [state, text] = await umpireAct(red.page, { action: "pause", reason: "phone call" });
  assert.equal(state, "done", text);
  await waitBanner(blue.page, "paused", "phone call");
  [state, text] = await umpireAct(red.page, { action: "resume", reason: "back" });
  assert.equal(state, "done", text);
  [state, text] = await umpireAct(red.page, { action: "pause", reason: "again" });
  assert.equal(state, "refused");
  assert.match(text, /^PERMISSION_DENIED: .*pause/, text);

  // --- The audit trail, in order, with reasons. ---
  await umpire.page.locator('[data-testid="audit-refresh"]').click();
  await umpire.page.waitForFunction(() => document.querySelectorAll('[data-testid="audit-table"] tbody tr').length >= 5, null, { timeout: 10_000 });
  const rows = await umpire.page.locator('[data-testid="audit-table"] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
  );
  const brief = rows.map((r) => [r[1], r[2], r[4]]);
  const expected = [
    ["umpire", "pause", "tea break"],
    ["umpire", "broadcast", "weather"],
    ["umpire", "resume", "tea is over"],
    [redInvite.seat, "pause", "phone call"],
    [redInvite.seat, "resume", "back"],
  ];
  assert.deepEqual(brief.slice(0, 5), expected, `audit trail: ${JSON.stringify(rows)}`);
  assert.ok(!brief.some((r) => r[2] === "I am bored" || r[2] === "again"), "refused actions are not in the trail");
  await shot(umpire.page, "audit");

  // --- The umpire moves the deadline: every page counts down to the new one. ---
  [state, text] = await umpireAct(umpire.page, { action: "setDeadline", reason: "more time for orders", deadline: "90" });
  assert.equal(state, "done", text);
  for (const p of [red, blue]) {
    await waitBanner(p.page, "deadline", "more time for orders");
    await p.page.waitForFunction(
      () => /Step closes in 1 h (29|30) min/.test(document.querySelector('[data-testid="deadline-countdown"]')?.textContent ?? ""),
      null,
      { timeout: 5000 },
    );
  }
  [state, text] = await umpireAct(umpire.page, { action: "setDeadline", reason: "bad", deadline: "whenever" });
  assert.equal(state, "refused");
  assert.match(text, /deadline/i, "a deadline the page cannot read is refused before sending");

  // --- Chat. ---
  const redSide = redInvite.seat.split("/")[0];
  await sendChat(red.page, "side", `${redSide} only: flank them at dawn`);
  await sendChat(red.page, "all", "Good luck, gentlemen");
  await sendChat(umpire.page, "to_seat", "A word in private, blue", blueInvite.seat);
  await sendChat(blue.page, "umpire", "Query: can dragoons dismount here?");

  // Every page is told what it may read: wait for the last message to arrive everywhere it should.
  await blue.page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-list"] li').length >= 3, null, { timeout: 10_000 });
  await umpire.page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-list"] li').length >= 4, null, { timeout: 10_000 });
  const seen = { red: await chatTexts(red.page), blue: await chatTexts(blue.page), umpire: await chatTexts(umpire.page) };
  assert.deepEqual(seen.red, [`${redSide} only: flank them at dawn`, "Good luck, gentlemen"], "red: its side's message and the public one");
  assert.deepEqual(seen.blue, ["Good luck, gentlemen", "A word in private, blue", "Query: can dragoons dismount here?"], "blue: never red's side channel");
  assert.deepEqual(
    seen.umpire,
    [`${redSide} only: flank them at dawn`, "Good luck, gentlemen", "A word in private, blue", "Query: can dragoons dismount here?"],
    "the umpire reads every channel",
  );
  const blueHtml = await blue.page.content();
  assert.ok(!blueHtml.includes("flank them at dawn"), "the side message is nowhere in blue's page");

  // An empty message is refused in the page.
  await red.page.locator('[data-testid="chat-text"]').fill("   ");
  await red.page.locator('[data-testid="chat-send"]').click();
  await red.page.locator('[data-testid="chat-error"]').waitFor({ state: "visible", timeout: 5000 });

  // A page opened later gets the chat history it may read from EventsSince.
  const blueLate = await openTable(browser, blueInvite, problems);
  await blueLate.page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-list"] li').length >= 3, null, { timeout: 10_000 });
  assert.deepEqual(await chatTexts(blueLate.page), seen.blue, "chat history on join: the same messages, once each");
  await shot(blue.page, "chat-blue");

  // Rewind, last (it may reload the game): whatever the server answers, done
  // or its Error ("not available" on servers without it), is shown.
  const step = await umpire.page.evaluate(() => String(window.galloper.play.step));
  [state, text] = await umpireAct(umpire.page, { action: "rewind", reason: "a misread rule", toStep: step });
  assert.ok(text.length > 0, `the rewind's outcome is shown: ${state}: ${text}`);
  console.log(`note: rewind to step ${step} -> ${state}: ${text}`);

  assert.deepEqual(problems, [], "no page errors or console errors");
  for (const p of [red, blue, blueLate]) await p.context.close();
  await organiser.close();
});
