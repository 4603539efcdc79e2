// What the scorer page and the match page share: talking to the API, the winds, the tile vocabulary.

export const $ = (selector) => document.querySelector(selector);
export const WINDS = ["E", "S", "W", "N"];
export const WIND_NAMES = { E: "East 东", S: "South 南", W: "West 西", N: "North 北" };

/** The JSON answer of an API call; a refusal throws an Error with the API's message (`detail`). */
export async function api(path, options) {
  const response = await fetch(path, options);
  const body = await response.json().catch(() => ({ detail: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(body.detail || `HTTP ${response.status}`);
  return body;
}

export const postJson = (path, body) => api(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                                    body: JSON.stringify(body) });

/** The tile faces from GET /v1/tiles, by code, each with its class index. */
export async function loadFaces() {
  const faces = await api("/v1/tiles");
  return new Map(faces.map((face, index) => [face.code, { ...face, index }]));
}
