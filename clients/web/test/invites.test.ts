import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { GameCreatedSchema } from "@gen/galloper/v1/protocol_pb";
import { invitesOf } from "../src/game/invites";

const here = { origin: "http://127.0.0.1:8080", pathname: "/" };

describe("the invitations a new game hands out", () => {
  it("lists the seats, and the spectators' shared link apart from them", () => {
    const created = create(GameCreatedSchema, {
      gameId: "g1",
      invites: [
        { seat: "umpire", description: "Umpire", token: "u" },
        { seat: "red/army", description: "Red army", token: "r" },
      ],
      spectators: { seat: "spectator", description: "Spectators (delayed view)", token: "s t" },
    });
    const links = invitesOf(created, here);
    expect(links.seats).toEqual([
      { seat: "umpire", description: "Umpire", url: "http://127.0.0.1:8080/#/join/g1/u" },
      { seat: "red/army", description: "Red army", url: "http://127.0.0.1:8080/#/join/g1/r" },
    ]);
    expect(links.spectators).toEqual({ seat: "spectator", description: "Spectators (delayed view)", url: "http://127.0.0.1:8080/#/join/g1/s%20t" });
  });

  it("has no spectators' link when the server sent none", () => {
    const created = create(GameCreatedSchema, { gameId: "g1", invites: [{ seat: "umpire", token: "u" }] });
    expect(invitesOf(created, here).spectators).toBeNull();
  });

  it("takes a spectator seat listed among the invites (servers before GameCreated.spectators) as the spectators' link", () => {
    const created = create(GameCreatedSchema, {
      gameId: "g1",
      invites: [
        { seat: "umpire", token: "u" },
        { seat: "spectator", token: "s" },
      ],
    });
    const links = invitesOf(created, here);
    expect(links.seats.map((l) => l.seat)).toEqual(["umpire"]);
    expect(links.spectators?.url).toBe("http://127.0.0.1:8080/#/join/g1/s");
  });
});
