/** The spec's Error body: { code, message, status }, always as application/json. */
export function sendError(res, status, code, message, headers = {}) {
  res.set(headers).status(status).json({ code, message, status });
}

/** An error a handler throws to answer with an Error body; the error middleware turns it into a response. */
export class HttpError extends Error {
  constructor(status, code, message, headers = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}
