// Browser test of the odds a player sees while composing a shot, against the
// real `galloper serve`. In the demo game the first bombardment phase (engine
// step 2 or 3) offers a battery targets: the French heavy battery (seat
// french/army) or the Allied medium battery (allies/army), whichever side has
// the initiative. The two army seats open their tables; the only step before
// that (the initiative) is locked through the page; then the seat owing the
// fire decision picks a target on its card, and the card's odds box must show
// the server's odds for that shot:
//   - the range band and modifier the server states are those the rules give
//     a shot described by what the seat's own view shows (`galloper odds fire`
//     with the gun's weight and DPs, a new target, and the exposed modifier
//     if the server found one) — the same total;
//   - each row's fraction is the Results table worked by hand for one D6 with
//     that modifier at that band, and the same as the command line prints;
//   - each percentage is that fraction to one decimal.
// Picking another target asks again; no target clears the box.
//
// Only the seats that owe something are opened: the spectator's page never
// gets a step (spectators owe no decisions, so no DecisionsOwed), which is why
// opening every invite and waiting for `play.step` never finished.
//
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createDemoGame, env, openTable, screenshot, startHarness } from "./harness.mjs";

const MAX_STEPS = 4; // initiative, then at most both sides' bombardment

let harness;
before(async () => {
  harness = await startHarness("odds");
});
after(async () => {
  await harness?.stop();
});

const play = (page) =>
  page.evaluate(() => {
    const g = window.galloper;
    return {
      step: g.play.step === null ? null : String(g.play.step),
      statusStep: g.play.seatStatusStep === null ? null : String(g.play.seatStatusStep),
      owing: [...g.play.owing],
      locked: g.play.locked,
      decisions: g.play.decisions.map((d) => ({ id: d.id, kind: d.kind, options: d.options.map((o) => o.id) })),
      units: (g.lastView?.units ?? []).map((u) => ({ id: u.id, troopType: u.troopType, formation: u.formation, dps: u.dps })),
    };
  });

// The Results table (Malbrook, Artillery fire), one D6 + modifier: at close
// range 2-3 one DP, 4-5 two DPs, 6+ a DP and a casualty; beyond it 4+ one DP.
function handWorked(modifier, band) {
  const rows = band === "close" ? ["no effect", "1 DP", "2 DPs", "1 DP and 1 casualty"] : ["no effect", "1 DP"];
  const count = Object.fromEntries(rows.map((r) => [r, 0]));
  for (let face = 1; face <= 6; face++) {
    const m = face + modifier;
    const row = band === "close" ? (m >= 6 ? rows[3] : m >= 4 ? rows[2] : m >= 2 ? rows[1] : rows[0]) : m >= 4 ? rows[1] : rows[0];
    count[row]++;
  }
  const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
  return rows.map((label) => {
    const n = count[label];
    const g = gcd(n, 6);
    return { label, fraction: n === 0 ? "0" : n === 6 ? "1" : `${n / g}/${6 / g}`, p: n / 6 };
  });
}

// What the rules library prints for a described shot (server/src/tools.cpp).
function cliOdds({ weight, band, gunDps, exposed }) {
  const range = { close: "close", effective: "effective", "beyond effective": "beyond" }[band];
  const args = ["odds", "fire", "--weight", weight, "--range", range, "--gun-dps", String(gunDps), "--target", "new"];
  if (exposed) args.push("--exposed");
  const out = execFileSync(env.bin, args, { encoding: "utf8" });
  const modifier = Number(/modifier ([+-]?\d+)/.exec(out)?.[1]);
  const rows = Object.fromEntries([...out.matchAll(/^ {2}([^:\n]+): (\S+) \(/gm)].map((m) => [m[1], m[2]]));
  return { out, modifier, rows };
}

const percentOf = (text) => Number(text.replace(/[<>%]/g, ""));

test("odds: a battery's fire card shows the exact odds of the shot being composed", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { organiser, invites } = await createDemoGame(browser, base, "Browser odds test", problems);

  const pages = new Map();
  const open = async (seat) => {
    if (!pages.has(seat)) {
      const inv = invites.find((i) => i.seat === seat);
      assert.ok(inv, `seat ${seat} has an invite (${invites.map((i) => i.seat).join(", ")})`);
      pages.set(seat, await openTable(browser, inv, problems));
    }
    return pages.get(seat).page;
  };
  await open("allies/army");
  await open("french/army");

  // Lock the steps before a battery has a target (the initiative: its default).
  let found = null;
  for (let round = 0; round < MAX_STEPS && !found; round++) {
    for (const [seat, { page }] of pages) {
      const p = await play(page);
      const d = p.decisions.find((x) => x.kind === "artillery_fire" && x.options.some((o) => o !== "hold"));
      if (d) found = { seat, page, decision: d, units: p.units };
    }
    if (found) break;
    const status = await play(pages.get("allies/army").page);
    assert.ok(status.owing.length > 0, `the game waits on a seat at step ${status.statusStep}`);
    for (const seat of status.owing) {
      const page = await open(seat);
      await page.waitForFunction((st) => String(window.galloper.play.step) === st, status.statusStep, { timeout: 10_000 });
      await page.locator('[data-testid="lock-answers"]').click();
    }
    for (const { page } of pages.values()) {
      await page.waitForFunction((st) => String(window.galloper.play.step) !== st && !window.galloper.life.syncing, status.statusStep, {
        timeout: 15_000,
      });
    }
  }
  assert.ok(found, `no battery was offered a target within ${MAX_STEPS} steps`);
  const { seat, page, decision, units } = found;
  const gunId = decision.id.slice(decision.id.indexOf("/") + 1);
  const gun = units.find((u) => u.id === gunId);
  assert.ok(gun, `${seat} sees its own gun ${gunId}`);
  const weight = /^(light|medium|heavy) gun$/.exec(gun.troopType)?.[1];
  assert.ok(weight, `${gunId} fires directly: ${gun.troopType}`);

  const card = page.locator(`.decision[data-decision-id="${decision.id}"]`);
  const odds = card.locator('[data-testid="odds"]');
  assert.equal(await odds.getAttribute("data-state"), "idle", "no odds before a target is chosen");
  const offered = await card.locator('[data-testid="odds-target"] option').evaluateAll((els) => els.map((e) => e.value).filter(Boolean));
  assert.deepEqual(offered, decision.options.filter((o) => o !== "hold"), "the odds box offers the card's targets");
  // A brigade in line: the exposed modifier (column, limbered) cannot apply.
  const inLine = offered.filter((id) => units.find((u) => u.id === id)?.formation === "line");
  assert.ok(inLine.length > 0, `${gunId} has a brigade in line among its targets: ${offered.join(", ")}`);
  const target = inLine[0];

  // The player orders the shot: the odds box follows the option the server holds.
  await card.locator(`button[data-option-id="${target}"]`).click();
  await page.waitForFunction(
    (id) => document.querySelector(`.decision[data-decision-id="${CSS.escape(id)}"]`)?.getAttribute("data-state") === "answered",
    decision.id,
    { timeout: 10_000 },
  );
  assert.equal(await card.locator('[data-testid="odds-target"]').inputValue(), target, "the odds follow the option chosen");
  await odds.locator('[data-testid="odds-table"]').waitFor({ timeout: 10_000 });
  assert.equal(await odds.getAttribute("data-state"), "shown");

  const summary = await odds.locator('[data-testid="odds-summary"]').innerText();
  const m = /^(\S+) fires at (\S+) \((close|effective|beyond effective) range, modifier ([+-]?\d+)\)$/.exec(summary);
  assert.ok(m, `the summary names the shot, band and modifier: "${summary}"`);
  assert.equal(m[1], gunId);
  assert.equal(m[2], target);
  const band = m[3];
  const modifier = Number(m[4]);
  const notes = await odds.locator(".odds-notes li").allInnerTexts();
  assert.ok(notes.some((n) => n.startsWith(`${target} is `) && n.includes(`${band} range, in the bombardment phase`)), notes.join(" | "));

  // The same shot described from the seat's own view, to the rules library.
  const exposed = notes.some((n) => n.includes("column, limbered or enfilade"));
  const cli = cliOdds({ weight, band, gunDps: gun.dps, exposed });
  assert.equal(cli.modifier, modifier, `the modifier the server found is the rules' for a ${weight} gun at ${band} range on a new target:\n${cli.out}\nnotes: ${notes.join(" | ")}`);

  const rows = await odds.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
  const expected = handWorked(modifier, band);
  assert.deepEqual(
    rows.map(([label, fraction]) => [label, fraction]),
    expected.map((e) => [e.label, e.fraction]),
    `the rows are the Results table for D6${modifier >= 0 ? "+" : ""}${modifier} at ${band} range`,
  );
  for (const [i, [label, fraction, percent]] of rows.entries()) {
    assert.equal(fraction, cli.rows[label], `${label}: as \`galloper odds fire\` prints it`);
    assert.match(percent, /^[<>]?\d+(\.\d)?%$/, `${label}: a percentage: ${percent}`);
    assert.ok(Math.abs(percentOf(percent) - 100 * expected[i].p) <= 0.05 + 1e-9, `${label}: ${percent} is ${fraction}`);
    assert.equal(await odds.locator(`tbody tr[data-outcome="${label}"]`).count(), 1);
  }
  // The target list's long labels fit the panel (it once pushed the orders
  // panel 130px wider than its column, scrolled sideways).
  const widths = await page.locator('[data-testid="orders-panel"]').evaluate((p) => ({
    panel: [p.clientWidth, p.scrollWidth],
    side: [p.parentElement.clientWidth, p.parentElement.scrollWidth],
  }));
  assert.ok(widths.panel[1] <= widths.panel[0] && widths.side[1] <= widths.side[0], `no sideways scrolling: ${JSON.stringify(widths)}`);
  await screenshot(page, "odds-shot");
  console.log(`${seat}: ${summary}; ${rows.map((r) => r.join(" ")).join("; ")}`);

  // Weighing another target asks the server again; none clears the box.
  const select = card.locator('[data-testid="odds-target"]');
  const other = offered.find((id) => id !== target);
  if (other) {
    await select.selectOption(other);
    await page.waitForFunction(
      ([id, t]) =>
        document.querySelector(`.decision[data-decision-id="${CSS.escape(id)}"] [data-testid="odds-summary"]`)?.textContent.includes(` fires at ${t} `),
      [decision.id, other],
      { timeout: 10_000 },
    );
  }
  await select.selectOption("");
  assert.equal(await odds.getAttribute("data-state"), "idle");
  assert.equal(await odds.locator('[data-testid="odds-table"]').count(), 0);
  // Asking changed nothing: the order the player gave is still the one held.
  assert.equal(await card.getAttribute("data-state"), "answered");
  assert.equal(await card.locator(`button[data-option-id="${target}"]`).getAttribute("aria-pressed"), "true");

  assert.deepEqual(problems, [], problems.join("\n"));
  for (const { context } of pages.values()) await context.close();
  await organiser.close();
});
