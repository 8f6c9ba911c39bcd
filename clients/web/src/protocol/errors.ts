import { ErrorCode } from "@gen/galloper/v1/protocol_pb";

// A failure the UI can show: either an Error message from the server (code,
// message, context as sent) or a local one (connection lost, timeout,
// unexpected reply), which uses the closest ErrorCode and says so in `local`.
export class GalloperError extends Error {
  readonly code: ErrorCode;
  readonly context: Readonly<Record<string, string>>;
  readonly correlationId: bigint;
  readonly local: boolean;

  constructor(init: {
    code: ErrorCode;
    message: string;
    context?: Record<string, string>;
    correlationId?: bigint;
    local?: boolean;
  }) {
    super(init.message);
    this.name = "GalloperError";
    this.code = init.code;
    this.context = init.context ?? {};
    this.correlationId = init.correlationId ?? 0n;
    this.local = init.local ?? false;
  }

  // "BAD_TOKEN" for ERROR_CODE_BAD_TOKEN: short enough for a UI line.
  get codeName(): string {
    return ErrorCode[this.code]?.replace(/^ERROR_CODE_/, "") ?? `code ${this.code}`;
  }

  describe(): string {
    const ctx = Object.entries(this.context)
      .map(([k, v]) => `${k}: ${v}`)
      .join("; ");
    return `${this.codeName}: ${this.message}${ctx ? ` (${ctx})` : ""}`;
  }
}

export function connectionLost(reason: string, correlationId = 0n): GalloperError {
  return new GalloperError({
    code: ErrorCode.UNSPECIFIED,
    message: `connection lost: ${reason}`,
    correlationId,
    local: true,
  });
}
