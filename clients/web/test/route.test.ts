import { describe, expect, it } from "vitest";
import { inviteUrl, joinHash, parseRoute } from "../src/ui/route";

describe("routes", () => {
  it("parses the lobby and join links", () => {
    expect(parseRoute("")).toEqual({ page: "lobby" });
    expect(parseRoute("#/")).toEqual({ page: "lobby" });
    expect(parseRoute("#/join/g-1/t0k3n")).toEqual({ page: "join", gameId: "g-1", token: "t0k3n" });
    expect(parseRoute("#/join/g-1")).toMatchObject({ page: "unknown" });
  });

  it("round-trips ids and tokens that need escaping", () => {
    const hash = joinHash("g/1", "a+b=");
    expect(hash).toBe("#/join/g%2F1/a%2Bb%3D");
    expect(parseRoute(hash)).toEqual({ page: "join", gameId: "g/1", token: "a+b=" });
    expect(inviteUrl({ origin: "http://127.0.0.1:8080", pathname: "/" }, "g1", "t")).toBe(
      "http://127.0.0.1:8080/#/join/g1/t",
    );
  });
});
