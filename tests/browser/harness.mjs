// Shared setup for the browser tests: the real `galloper serve` on a free
// loopback port and Debian's Chromium through playwright-core.
//
// Environment (set by CTest, tests/browser/CMakeLists.txt):
//   GALLOPER_BIN          the server binary ($<TARGET_FILE:galloper>)
//   GALLOPER_STATIC_DIR   the built web client (clients/web/dist in the build tree)
//   GALLOPER_WEB_DIR      clients/web (for playwright-core from its node_modules)
//   GALLOPER_CHROMIUM     default /usr/bin/chromium
//   GALLOPER_ARTIFACTS_DIR  the server logs and the tests' own pictures go here
//   GALLOPER_SCREENSHOT_DIR full-page screenshots of the key screens (shot()),
//                           <build>/artifacts/screenshots: kept by CI
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, accessSync, constants, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
export const env = {
  bin: process.env.GALLOPER_BIN ?? "",
  staticDir: process.env.GALLOPER_STATIC_DIR ?? "",
  webDir: process.env.GALLOPER_WEB_DIR || path.join(repo, "clients/web"),
  chromium: process.env.GALLOPER_CHROMIUM || "/usr/bin/chromium",
  artifacts: process.env.GALLOPER_ARTIFACTS_DIR || path.join(repo, "build/test-artifacts/browser"),
  screenshots: process.env.GALLOPER_SCREENSHOT_DIR || path.join(repo, "build/artifacts/screenshots"),
};

// A full-page screenshot of a key screen, `<name>.png` in the screenshot
// directory (one name per screen: a later run overwrites it).
export async function screenshot(page, name, opts = {}) {
  mkdirSync(env.screenshots, { recursive: true });
  const file = path.join(env.screenshots, `${name.replace(/[^\w.-]+/g, "_")}.png`);
  await page.screenshot({ path: file, fullPage: true, ...opts });
  return file;
}

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function requireSetup() {
  if (!env.bin) {
    throw new Error(
      "galloper server binary missing: GALLOPER_BIN is empty (the CMake target `galloper` did not exist when " +
        "this build was configured; build server/ and re-run cmake)",
    );
  }
  if (!existsSync(env.bin)) {
    throw new Error(`galloper server binary missing: ${env.bin} does not exist (build the \`galloper\` target first)`);
  }
  accessSync(env.bin, constants.X_OK);
  if (!existsSync(path.join(env.staticDir, "index.html"))) {
    throw new Error(`web client not built: ${env.staticDir}/index.html missing (build the \`web_client\` target)`);
  }
  if (!existsSync(env.chromium)) {
    throw new Error(`Chromium missing at ${env.chromium}: run \`.ci/deps --web\` (Debian package chromium)`);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitHealthy(base, proc, logPath, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`galloper serve exited early (${proc.exitCode ?? proc.signalCode}); see ${logPath}`);
    }
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.status === 200) return;
      lastError = `status ${res.status}`;
    } catch (e) {
      lastError = String(e?.cause?.code ?? e);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`galloper serve did not answer ${base}/healthz within ${timeoutMs} ms (${lastError}); see ${logPath}`);
}

// Starts the server and the browser. `name` keeps each test's server log apart;
// `serverArgs` go to `galloper serve` after the harness's own.
export async function startHarness(name, { serverArgs = [] } = {}) {
  requireSetup();
  mkdirSync(env.artifacts, { recursive: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "galloper-browser-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logPath = path.join(env.artifacts, `server-${name}.log`);
  const log = createWriteStream(logPath);
  const spawnServer = () => {
    const proc = spawn(env.bin, ["serve", "--listen", `127.0.0.1:${port}`, "--data", dataDir, "--static-dir", env.staticDir, ...serverArgs], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stdout.pipe(log, { end: false });
    proc.stderr.pipe(log, { end: false });
    return proc;
  };
  let server = spawnServer();
  let browser;
  try {
    await waitHealthy(base, server, logPath);
    const require = createRequire(path.join(env.webDir, "package.json"));
    const { chromium } = require("playwright-core");
    browser = await chromium.launch({ executablePath: env.chromium, headless: true, args: CHROMIUM_ARGS });
  } catch (e) {
    server.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }

  async function stopServer() {
    if (server.exitCode !== null || server.signalCode !== null) return;
    server.kill("SIGTERM");
    await new Promise((r) => {
      const t = setTimeout(() => {
        server.kill("SIGKILL");
        r();
      }, 5000);
      server.once("exit", () => {
        clearTimeout(t);
        r();
      });
    });
  }

  // Stops the server and, once `whileDown` (if any) has run, starts it again
  // on the same port with the same data: the games come back from the store.
  async function restartServer(whileDown) {
    await stopServer();
    if (whileDown) await whileDown();
    server = spawnServer();
    await waitHealthy(base, server, logPath);
  }

  async function stop() {
    await browser?.close().catch(() => {});
    await stopServer();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { base, browser, logPath, stop, restartServer };
}

// Keep every request on loopback: anything else is refused in the browser.
export async function loopbackOnly(context) {
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    const ok = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) || url.protocol === "data:";
    return ok ? route.continue() : route.abort("blockedbyclient");
  });
}

export function watchPage(page, label, problems) {
  page.on("pageerror", (e) => problems.push(`${label}: page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`${label}: console error: ${m.text()}`);
  });
}

// The lobby creates the demo game; returns the invites as the page lists them
// (the seats', then the spectators' shared link as seat "spectator").
// `settings`: create-form fields to set, by name (the `setting-<name>` test
// ids, e.g. { maxPlayerPauses: "1", vision: "wing_only" }).
export async function createDemoGame(browser, base, title, problems, settings = {}) {
  const organiser = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await loopbackOnly(organiser);
  const lobby = await organiser.newPage();
  watchPage(lobby, "lobby", problems);
  await lobby.goto(`${base}/`);
  await lobby.locator('[data-testid="scenario"] option[value="malbrook/demo"]').waitFor({ state: "attached", timeout: 15_000 });
  await lobby.locator('[data-testid="title"]').fill(title);
  await fillSettings(lobby, settings);
  await lobby.locator('[data-testid="create-game"]').click();
  const inviteItems = lobby.locator('[data-testid="invites"] li[data-seat]');
  await inviteItems.first().waitFor({ timeout: 15_000 });
  const invites = await inviteItems.evaluateAll((els) =>
    els.map((el) => ({ seat: el.getAttribute("data-seat"), url: el.getAttribute("data-invite-url") })),
  );
  const gameId = await lobby.locator('[data-testid="invites"]').getAttribute("data-game-id");
  const commitment = await lobby.locator('[data-testid="invites"] code').first().innerText();
  return { organiser, lobby, invites, gameId, commitment };
}

// The create form's settings, by name (see createDemoGame).
async function fillSettings(lobby, settings) {
  if (Object.keys(settings).length === 0) return;
  await lobby.locator('[data-testid="settings-box"] > summary').click();
  for (const [name, value] of Object.entries(settings)) {
    const field = lobby.locator(`[data-testid="setting-${name}"]`);
    // botSeats: the seat ids to tick among the scenario's seats.
    if (Array.isArray(value)) for (const v of value) await field.locator(`input[type="checkbox"][value="${v}"]`).check();
    else if ((await field.evaluate((el) => el.tagName)) === "SELECT") await field.selectOption(value);
    else await field.fill(value);
  }
}

// Creates a game from a scenario file uploaded through the lobby; returns the
// invites as the page lists them (the spectators' link as seat "spectator").
// `settings` as createDemoGame's.
export async function createUploadedGame(browser, base, file, title, problems, settings = {}) {
  const organiser = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await loopbackOnly(organiser);
  const lobby = await organiser.newPage();
  watchPage(lobby, "lobby", problems);
  await lobby.goto(`${base}/`);
  await lobby.locator('[data-testid="scenario"] option[value="malbrook/demo"]').waitFor({ state: "attached", timeout: 15_000 });
  await lobby.locator('[data-testid="scenario-file"]').setInputFiles(file);
  await lobby.locator(".scenario-description", { hasText: path.basename(file) }).waitFor();
  await lobby.locator('[data-testid="title"]').fill(title);
  await fillSettings(lobby, settings);
  await lobby.locator('[data-testid="create-game"]').click();
  const inviteItems = lobby.locator('[data-testid="invites"] li[data-seat]');
  await inviteItems.first().waitFor({ timeout: 15_000 });
  const invites = await inviteItems.evaluateAll((els) =>
    els.map((el) => ({ seat: el.getAttribute("data-seat"), url: el.getAttribute("data-invite-url") })),
  );
  const gameId = await lobby.locator('[data-testid="invites"]').getAttribute("data-game-id");
  return { organiser, lobby, invites, gameId };
}

// The test-only scenario with a battery in range and two brigades in contact.
export const FIRE_AND_COMBAT = path.join(here, "scenarios/fire_and_combat.textproto");
// The test-only scenario with two brigades that can side step onto each other.
export const COLLISION = path.join(here, "scenarios/collision.textproto");

// The path of every WebSocket a page opens, in order.
export function socketPaths(page) {
  const paths = [];
  page.on("websocket", (ws) => paths.push(new URL(ws.url()).pathname));
  return paths;
}

// Opens a seat's invite in its own browser context (or `context`) and waits
// until the table shows the seat and what it owes.
export async function openTable(browser, invite, problems, { context, viewport = { width: 1366, height: 900 }, initScript } = {}) {
  const ctx = context ?? (await browser.newContext({ viewport }));
  if (!context) await loopbackOnly(ctx);
  if (initScript) await ctx.addInitScript(initScript);
  const page = await ctx.newPage();
  watchPage(page, invite.seat, problems);
  await page.goto(invite.url);
  await page.locator('svg[data-testid="table-map"] g.unit').first().waitFor({ timeout: 15_000 });
  await page.waitForFunction(
    () => window.galloper && window.galloper.play.step !== null && window.galloper.play.seatStatusStep !== null && !window.galloper.life.syncing,
    null,
    { timeout: 10_000 },
  );
  return { seat: invite.seat, context: ctx, page };
}

export const sideOf = (seat) => (seat.includes("/") ? seat.split("/")[0] : "");

// One invite per side (the army's where there is one).
export function onePerSide(invites) {
  const sides = [...new Set(invites.map((i) => sideOf(i.seat)).filter(Boolean))];
  return sides.map((side) => {
    const ofSide = invites.filter((i) => sideOf(i.seat) === side);
    return ofSide.find((i) => /\/army$/.test(i.seat)) ?? ofSide[0];
  });
}

// Sends one umpire-console action from a page and waits for its outcome
// ("done" or "refused"); returns [state, text]. `botSeat` and `bot` ("yes"
// hands the seat to the bot, "no" takes it back) are setBotSeat's.
export async function umpireAct(page, { action, reason = "", deadline, text, result, toStep, botSeat, bot }) {
  const con = page.locator('[data-testid="umpire-console"]');
  await con.locator('[data-testid="umpire-action"]').selectOption(action);
  if (deadline !== undefined) await con.locator('[data-testid="umpire-deadline"]').fill(deadline);
  if (text !== undefined) await con.locator('[data-testid="umpire-text"]').fill(text);
  if (result !== undefined) await con.locator('[data-testid="umpire-result-text"]').fill(result);
  if (toStep !== undefined) await con.locator('[data-testid="umpire-to-step"]').fill(String(toStep));
  if (botSeat !== undefined) await con.locator('[data-testid="umpire-bot-seat"]').fill(botSeat);
  if (bot !== undefined) await con.locator('[data-testid="umpire-bot-choice"]').selectOption(bot);
  await con.locator('[data-testid="umpire-reason"]').fill(reason);
  const outcome = con.locator('[data-testid="umpire-outcome"]');
  // Clear the previous outcome so the wait sees this one.
  await outcome.evaluate((el) => {
    el.hidden = true;
    el.dataset.state = "";
  });
  await con.locator('[data-testid="umpire-submit"]').click();
  await page.waitForFunction(
    () => ["done", "refused"].includes(document.querySelector('[data-testid="umpire-outcome"]')?.dataset.state ?? ""),
    null,
    { timeout: 10_000 },
  );
  return [await outcome.getAttribute("data-state"), await outcome.innerText()];
}
