// Seats by the names a player reads. The seats list is the scenario's as the
// server states it (ScenarioInfo.seats, with each seat's description); a
// game made from an uploaded scenario is not in that list, and its seats are
// named from the view's sides instead (a seat id is "<side>/army" or
// "<side>/<wing>", protocol.proto SeatInfo).
import type { GameView } from "@gen/galloper/v1/game_pb";
import type { ScenarioInfo, SeatInfo } from "@gen/galloper/v1/protocol_pb";

// The bundled scenario a game was made from: its view names the scenario
// ("demo") and the ruleset ("malbrook"); the list keys it "malbrook/demo".
export function seatsOfGame(scenarios: readonly ScenarioInfo[], view: GameView | null): SeatInfo[] {
  if (!view?.scenario) return [];
  const key = view.ruleset ? `${view.ruleset}/${view.scenario}` : view.scenario;
  const found = scenarios.find((s) => (s.name === key || s.name === view.scenario) && (!view.ruleset || !s.ruleset || s.ruleset === view.ruleset));
  return found ? [...found.seats] : [];
}

export function seatName(id: string, seats: readonly SeatInfo[], view: GameView | null): string {
  if (id === "umpire") return "Umpire";
  const listed = seats.find((s) => s.id === id);
  if (listed?.description) return listed.description;
  const slash = id.indexOf("/");
  if (slash < 0) return id;
  const sideId = id.slice(0, slash);
  const rest = id.slice(slash + 1);
  const side = view?.sides.find((s) => s.id === sideId)?.name || sideId;
  if (rest === "army") return `${side}: the army`;
  return `${side}: ${rest.replace(/[_-]+/g, " ")}`;
}
