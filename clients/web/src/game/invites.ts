// The links a new game hands out (GameCreated): one per seat of the scenario,
// the umpire's first, and the spectators' shared link, which is not a seat.
import type { GameCreated, SeatInvite } from "@gen/galloper/v1/protocol_pb";
import { inviteUrl } from "../ui/route";

export interface InviteLink {
  seat: string;
  description: string;
  url: string;
}

export interface GameInvites {
  seats: InviteLink[];
  spectators: InviteLink | null;
}

export const SPECTATOR_SEAT = "spectator";

// A server from before GameCreated.spectators listed the spectators' link
// among the seats as seat "spectator": it is taken as the spectators' link.
export function invitesOf(created: GameCreated, location: { origin: string; pathname: string }): GameInvites {
  const link = (inv: SeatInvite): InviteLink => ({
    seat: inv.seat,
    description: inv.description,
    url: inviteUrl(location, created.gameId, inv.token),
  });
  const listed = created.invites.find((i) => i.seat === SPECTATOR_SEAT);
  const watch = created.spectators?.token ? created.spectators : listed;
  return {
    seats: created.invites.filter((i) => i.seat !== SPECTATOR_SEAT).map(link),
    spectators: watch ? link({ ...watch, seat: watch.seat || SPECTATOR_SEAT }) : null,
  };
}
