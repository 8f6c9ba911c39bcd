// Browser test against the real `galloper serve`: bot-played seats and the
// daily digest from the web client. A demo game is created with one seat
// left to the bot (ticked among the demo's seats) and a webhook sent as a
// daily digest (the lobby's form);
// the seats bar marks the bot's seat on the umpire's and a player's page;
// the umpire hands the seats that owe the open step to the bot from the
// console (the server's refusals shown as sent), the audit trail lists each
// with its reason, and the game moves on because the server answers and
// locks the bot's decisions itself; then the umpire takes a seat back.
//
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createDemoGame, openTable, screenshot, startHarness, umpireAct } from "./harness.mjs";

let harness;
before(async () => {
  harness = await startHarness("bot_seats");
});
after(async () => {
  await harness?.stop();
});

const BOT_ON_CREATE = "french/gauche";

const chip = (page, seat) => page.locator(`[data-testid="seats-bar"] li[data-seat="${seat}"]`);

async function waitChipBot(page, seat, bot) {
  await page.waitForFunction(
    ([s, b]) => document.querySelector(`[data-testid="seats-bar"] li[data-seat="${s}"]`)?.dataset.bot === b || (b === "no" && !document.querySelector(`[data-testid="seats-bar"] li[data-seat="${s}"]`)),
    [seat, bot],
    { timeout: 10_000 },
  );
}

test("bot seats from the form and the umpire console; the game moves on without them", async () => {
  const problems = [];
  const { browser, base } = harness;
  // A loopback webhook nobody listens on: as a daily digest it is not called during the test.
  const { organiser, lobby, invites } = await createDemoGame(browser, base, "Bot seats test", problems, {
    botSeats: [BOT_ON_CREATE],
    webhookUrl: "https://hooks.example/digest",
    webhookDelivery: "daily",
    digestTime: "07:30",
    timeZone: "Europe/Paris",
  });
  const seats = invites.map((i) => i.seat);
  assert.ok(seats.includes(BOT_ON_CREATE), `the demo has the seat ${BOT_ON_CREATE}: ${seats.join(", ")}`);
  // The form offered a labelled checkbox for each player seat of the demo, as the server's invites name them.
  const group = lobby.getByRole("group", { name: "Bot plays" });
  const offered = await group.locator('input[type="checkbox"]').evaluateAll((els) => els.map((el) => [el.value, el.checked]));
  assert.deepEqual(
    offered,
    seats.filter((s) => s !== "umpire" && s !== "spectator").map((s) => [s, s === BOT_ON_CREATE]),
    "one checkbox per player seat, the bot's ticked",
  );
  const gauche = invites.find((i) => i.seat === BOT_ON_CREATE);
  const description = await lobby.locator(`[data-testid="invites"] li[data-seat="${BOT_ON_CREATE}"] .invite-seat .muted`).innerText();
  assert.ok(gauche && description.length > 3, `the seat's description: ${description}`);
  assert.equal(await group.getByRole("checkbox", { name: description.replace(/^\s*—\s*/, "") }).getAttribute("value"), BOT_ON_CREATE, "labelled by the seat's description");
  // A seat the scenario does not have (a page altered to send one): the
  // server's refusal, in the lobby, word for word.
  const gameId = await lobby.locator('[data-testid="invites"]').getAttribute("data-game-id");
  await group.locator(`input[value="${BOT_ON_CREATE}"]`).evaluate((el) => (el.value = "allies/nowhere"));
  await lobby.locator('[data-testid="create-game"]').click();
  const lobbyError = lobby.locator(".lobby .error-box");
  await lobbyError.waitFor({ state: "visible", timeout: 10_000 });
  assert.match(await lobbyError.innerText(), /^INVALID_ARGUMENT: bot_seats: 'allies\/nowhere' is not a player seat of this scenario/);
  assert.equal(await lobby.locator('[data-testid="invites"]').getAttribute("data-game-id"), gameId, "the invitations shown are still the first game's");
  await lobby.locator(".games .card-head button").click();
  await lobby.waitForTimeout(300);
  assert.deepEqual(
    await lobby.locator('[data-testid="games"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.gameId)),
    [gameId],
    "nothing created by the refused form",
  );
  const umpireInvite = invites.find((i) => i.seat === "umpire");
  const playerInvite = invites.find((i) => i.seat === "allies/army");
  assert.ok(umpireInvite && playerInvite, `umpire and allies/army: ${seats.join(", ")}`);

  const umpire = await openTable(browser, umpireInvite, problems, { context: organiser });
  const player = await openTable(browser, playerInvite, problems);

  // --- The seat chosen in the form is the bot's, on every page. ---
  for (const p of [umpire, player]) {
    await waitChipBot(p.page, BOT_ON_CREATE, "yes");
    assert.equal(await chip(p.page, BOT_ON_CREATE).locator('[data-testid="seat-bot"]').textContent(), "bot", `${p.seat}: the chip says bot`);
  }
  const settings = umpire.page.locator('[data-testid="settings-list"]');
  assert.equal(await settings.locator('[data-setting="bots"]').textContent(), BOT_ON_CREATE, "the settings in force name the bot's seat");
  assert.equal(await settings.locator('[data-setting="webhooks"]').textContent(), "1, all as a daily digest at 07:30 Europe/Paris");

  // --- Refusals: the server's words, shown as sent. ---
  let [state, text] = await umpireAct(umpire.page, { action: "setBotSeat", reason: "try", botSeat: "umpire", bot: "yes" });
  assert.equal(state, "refused");
  assert.match(text, /^INVALID_ARGUMENT: the bot plays player seats only, not umpire/, text);
  [state, text] = await umpireAct(umpire.page, { action: "setBotSeat", reason: "again", botSeat: BOT_ON_CREATE, bot: "yes" });
  assert.equal(state, "refused");
  assert.match(text, new RegExp(`^INVALID_ARGUMENT: seat ${BOT_ON_CREATE} is already played by the bot`), text);
  [state, text] = await umpireAct(umpire.page, { action: "setBotSeat", reason: "", botSeat: "allies/left", bot: "yes" });
  assert.equal(state, "refused");
  assert.match(text, /reason/i, "no reason, nothing sent");
  // A player's console has no such action, and the server would refuse it anyway.
  const playerActions = await player.page.locator('[data-testid="umpire-action"] option').evaluateAll((els) => els.map((e) => e.value));
  assert.ok(!playerActions.includes("setBotSeat"), `players cannot hand seats to the bot: ${playerActions}`);
  const playerTries = await player.page.evaluate(async () => {
    const g = window.galloper;
    try {
      await g.client.umpireAction(g.gameId, "let the bot do it", { case: "setBotSeat", value: { seat: "allies/left", bot: true } });
      return "accepted";
    } catch (e) {
      return e.describe();
    }
  });
  assert.match(playerTries, /^PERMISSION_DENIED: /, playerTries);

  // --- The umpire hands every seat that owes this step to the bot: the
  // server answers and locks for them, and the step resolves. ---
  const before = await umpire.page.evaluate(() => ({
    step: Number(window.galloper.play.step),
    owing: window.galloper.play.owing,
    bots: window.galloper.play.bots,
  }));
  const toHand = before.owing.filter((s) => !before.bots.includes(s));
  assert.ok(toHand.length > 0, `someone owes step ${before.step}: ${JSON.stringify(before)}`);
  for (const seat of toHand) {
    [state, text] = await umpireAct(umpire.page, { action: "setBotSeat", reason: `${seat} has gone home`, botSeat: seat, bot: "yes" });
    assert.equal(state, "done", text);
  }
  console.log(`note: step ${before.step} owed by ${before.owing.join(", ")}; handed to the bot: ${toHand.join(", ")}`);
  await umpire.page.waitForFunction((s) => Number(window.galloper.play.step) > s, before.step, { timeout: 15_000 });
  await player.page.waitForFunction((s) => Number(window.galloper.play.step) > s, before.step, { timeout: 15_000 });
  for (const seat of toHand) await waitChipBot(umpire.page, seat, "yes");
  // The step resolved: events came in, and the bot's seats are marked on the player's page too.
  assert.ok((await umpire.page.evaluate(() => window.galloper.play.events.length)) > 0, "the resolved step's events are shown");
  for (const seat of toHand) await waitChipBot(player.page, seat, "yes");
  // Every page is told, with the umpire's reason.
  await player.page.waitForFunction(
    (reason) => [...document.querySelectorAll('[data-testid="notice-banner"] [data-kind="bot_seat"]')].some((e) => e.textContent.includes("Bot seat") && e.textContent.includes(reason)),
    `${toHand[0]} has gone home`,
    { timeout: 10_000 },
  );

  // --- The audit trail lists each hand-over with its reason. ---
  await umpire.page.locator('[data-testid="audit-refresh"]').click();
  await umpire.page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="audit-table"] tbody tr[data-action="set_bot_seat"]').length >= n,
    toHand.length,
    { timeout: 10_000 },
  );
  const rows = await umpire.page.locator('[data-testid="audit-table"] tbody tr[data-action="set_bot_seat"]').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
  );
  assert.deepEqual(
    rows.map((r) => [r[1], r[4], r[5]]),
    toHand.map((seat) => ["umpire", `${seat} has gone home`, `${seat} to the bot`]),
    `audit: ${JSON.stringify(rows)}`,
  );
  await screenshot(umpire.page, "bot-seats-umpire");

  // --- The umpire takes the form's seat back: the bar stops marking it. ---
  [state, text] = await umpireAct(umpire.page, { action: "setBotSeat", reason: "a new player joined", botSeat: BOT_ON_CREATE, bot: "no" });
  assert.equal(state, "done", text);
  for (const p of [umpire, player]) await waitChipBot(p.page, BOT_ON_CREATE, "no");
  const bots = await umpire.page.evaluate(() => window.galloper.play.bots);
  assert.ok(!bots.includes(BOT_ON_CREATE) && toHand.every((s) => bots.includes(s)), `bots now: ${bots}`);

  assert.deepEqual(problems, [], "no page errors or console errors");
  await player.context.close();
  await organiser.close();
});
