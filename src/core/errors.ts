/**
 * The one typed error family of spotcheck. Every error carries a stable string
 * `code`; callers branch on the code, never on the message.
 */

/** Stable error codes. Never renumber or rename: reports and scripts depend on them. */
export type SpotcheckErrorCode =
  /** A command-line usage mistake (unknown flag, missing value). */
  | 'ERR_USAGE'
  /** An input to a pure function is not of the expected form. */
  | 'ERR_INVALID_INPUT'
  /** An explicit assert over validation issues failed. */
  | 'ERR_VALIDATION'
  /** The server answered a request with a rejection (carries its code and msg). */
  | 'ERR_API'
  /** The server answered something that is not the JSON the spec describes. */
  | 'ERR_BAD_RESPONSE'
  /** No answer within the timeout. */
  | 'ERR_TIMEOUT'
  /** The target could not be reached (refused, reset, DNS). */
  | 'ERR_NETWORK'
  /** The target answered, but accepted no valid request anywhere: no verdict can be earned (wrong secret, path, or not this API). */
  | 'ERR_TARGET'
  /** A data file (vectors, rules, spec) does not match its schema. */
  | 'ERR_DATA_FILE'
  /** The server could not start (port in use, bad credentials file). */
  | 'ERR_SERVER_START';

/** Base class: `err.code` is stable, `err.details` is plain data safe to print (no secrets). */
export class SpotcheckError extends Error {
  readonly code: SpotcheckErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: SpotcheckErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SpotcheckError';
    this.code = code;
    this.details = details;
  }
}

/** A rejection by the API (§7): HTTP status and the server's own `code` and `msg`. */
export class ApiError extends SpotcheckError {
  readonly status: number;
  readonly apiCode: number | string | undefined;
  readonly apiMsg: string | undefined;

  constructor(status: number, apiCode: number | string | undefined, apiMsg: string | undefined) {
    super(
      'ERR_API',
      `API rejected the request: HTTP ${status}, code ${String(apiCode)}${apiMsg ? `, msg ${apiMsg}` : ''}`,
      {
        status,
        apiCode,
        apiMsg,
      },
    );
    this.name = 'ApiError';
    this.status = status;
    this.apiCode = apiCode;
    this.apiMsg = apiMsg;
  }
}

/** Type guard for the family, optionally for one code. */
export function isSpotcheckError(err: unknown, code?: SpotcheckErrorCode): err is SpotcheckError {
  return err instanceof SpotcheckError && (code === undefined || err.code === code);
}
