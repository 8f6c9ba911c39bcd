import { create, fromBinary, toBinary, toJsonString } from "@bufbuild/protobuf";
import { EnvelopeSchema, type Envelope } from "@gen/galloper/v1/protocol_pb";
import type { SocketLike } from "../src/protocol/socket";

type EnvelopeInit = Parameters<typeof create<typeof EnvelopeSchema>>[1];

// A WebSocket stand-in driven by the test: it records what the client sends
// and lets the test play the server.
export class FakeSocket implements SocketLike {
  binaryType: BinaryType = "blob";
  readyState = 0;
  onopen: ((ev: Event) => unknown) | null = null;
  onclose: ((ev: CloseEvent) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  onmessage: ((ev: MessageEvent) => unknown) | null = null;
  readonly sent: Envelope[] = [];
  closedByClient: { code?: number; reason?: string } | undefined;

  constructor(readonly url: string) {}

  send(data: Uint8Array): void {
    if (this.readyState !== 1) throw new Error("send on a socket that is not open");
    this.sent.push(fromBinary(EnvelopeSchema, data));
  }

  close(code?: number, reason?: string): void {
    this.closedByClient = { code, reason };
    this.readyState = 3;
  }

  // ---- the test plays the server ----
  serverAccept(): void {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }

  serverSend(init: EnvelopeInit, encoding: "binary" | "json" = "binary"): void {
    const env = create(EnvelopeSchema, init);
    const data =
      encoding === "binary"
        ? toBinary(EnvelopeSchema, env).slice().buffer
        : toJsonString(EnvelopeSchema, env);
    this.onmessage?.({ data } as MessageEvent);
  }

  serverDrop(code = 1006, reason = "gone"): void {
    this.readyState = 3;
    this.onclose?.({ code, reason } as CloseEvent);
  }

  last(): Envelope {
    const env = this.sent[this.sent.length - 1];
    if (!env) throw new Error("nothing sent");
    return env;
  }

  // Answers the pending Hello with a Welcome.
  welcome(): void {
    const hello = this.last();
    if (hello.body.case !== "hello") throw new Error(`expected hello, got ${hello.body.case}`);
    this.serverSend({
      correlationId: hello.correlationId,
      body: { case: "welcome", value: { serverVersion: "test", protocol: { major: 1, minor: 0 } } },
    });
  }
}

export class FakeNetwork {
  readonly sockets: FakeSocket[] = [];
  readonly factory = (url: string): FakeSocket => {
    const s = new FakeSocket(url);
    this.sockets.push(s);
    return s;
  };
  get current(): FakeSocket {
    const s = this.sockets[this.sockets.length - 1];
    if (!s) throw new Error("no socket opened");
    return s;
  }
}
