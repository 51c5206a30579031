// The bot service's HTTP API (docs/protocol.md): one JSON call, its errors in the service's one shape.

export class ApiError extends Error {
  constructor(status, error) {
    super(error.message);
    this.status = status;
    this.code = error.code;
    this.field = error.field;
  }
}

/** Call the API; resolves to the JSON answer (null for 204), rejects with an ApiError saying what was wrong. */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, { code: "network", message: `the server cannot be reached (${err.message})`, field: null });
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, data?.error ?? { code: "http_error", message: `HTTP ${response.status}`, field: null });
  }
  return data;
}

/** The text to show for a failed call: the server's message, with the field it names. */
export function errorText(err) {
  if (!(err instanceof ApiError)) return String(err.message || err);
  return err.field && !err.message.startsWith(err.field) ? `${err.field}: ${err.message}` : err.message;
}
