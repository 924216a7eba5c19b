/**
 * The one error type of docs-platform. Operations throw it; the pipeline alone renders it as
 * `{"error":{"code":<status>,"message":"..."}}`. Anything else that escapes an operation is a bug
 * and becomes a 500 whose details stay in the server log.
 */
export class ApiError extends Error {
  /** The HTTP status the failure maps to. */
  readonly status: number;
  /** Headers the answer carries besides the error shape's (a 503's Retry-After); usually none. */
  readonly headers?: Readonly<Record<string, string>>;

  constructor(status: number, message: string, headers?: Readonly<Record<string, string>>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    if (headers) this.headers = headers;
  }
}

/** The JSON body of every failed response. */
export interface ErrorBody {
  error: { code: number; message: string };
}

/** Builds the error body for a status and a message. */
export function errorBody(status: number, message: string): ErrorBody {
  return { error: { code: status, message } };
}

/** 400: the request is malformed or names something that cannot be used. */
export const badRequest = (message: string) => new ApiError(400, message);
/** 401: no usable credentials. */
export const unauthorized = (message: string) => new ApiError(401, message);
/** 403: the caller can see the resource but may not do this to it. */
export const forbidden = (message: string) => new ApiError(403, message);
/** 404: the resource does not exist, or the caller may not know that it does. */
export const notFound = (message: string) => new ApiError(404, message);
/** 409: the request conflicts with the current state of the resource. */
export const conflict = (message: string) => new ApiError(409, message);
/** 410: what the request names existed but is used up or past its end (a token claim). */
export const gone = (message: string) => new ApiError(410, message);
/** 422: the request is well-formed but what it asks for is beyond a limit (a PDF of too many pages). */
export const unprocessable = (message: string) => new ApiError(422, message);
/** 412: a precondition of the operation does not hold. */
export const preconditionFailed = (message: string) => new ApiError(412, message);

/**
 * 503: the store cannot take the request now (a write could not be saved, its database is away); it changed
 * nothing. With `retryAfterSeconds`, the answer says when to try again (Retry-After).
 */
export const unavailable = (message: string, retryAfterSeconds?: number) =>
  new ApiError(503, message, retryAfterSeconds === undefined ? undefined : { 'retry-after': String(retryAfterSeconds) });

/**
 * Thrown by a write operation that fails but must keep what it wrote: a space found past its restore
 * window is purged, then reported as gone (404). The platform commits the transaction, then throws
 * `error`. Any other failure rolls the transaction back.
 */
export class FailAfterCommit extends Error {
  readonly error: ApiError;

  constructor(error: ApiError) {
    super(error.message);
    this.name = 'FailAfterCommit';
    this.error = error;
  }
}
