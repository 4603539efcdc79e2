// The match page: a referee's sheet on a phone. The sheet lives in the server's ledger (/v1/matches); every
// entry is one POST, every change redraws the sheet from the answer. A win is recorded by its points, by its
// hand typed, or by a photo (POST /v1/scan reads the hand, the referee checks the notation, the sheet scores it).
import { $, WIND_NAMES, api, loadFaces, postJson } from "./common.js";
import { tileSvg } from "./tiles.js";

let BY_CODE = new Map();
// player and discarder: a player's index as a string, null (self-drawn, for the discarder), undefined: not chosen
const state = { id: null, sheet: null, kind: "win", player: undefined, discarder: undefined, by: "points",
                source: "typed" };
const KIND_TITLES = { win: "Winner", false_win: "Caller", penalty: "Player" };

const problem = (message) => {
  $("#problem").textContent = message;
  $("#problem").hidden = !message;
};

const sign = (n) => (n > 0 ? `+${n}` : String(n));

function describe(row, players) {
  const who = row.player === null ? "" : players[row.player];
  if (row.kind === "draw") return "Draw 荒庄";
  if (row.kind === "false_win") return `${who}: false win 错和`;
  if (row.kind === "penalty") return `${who}: penalty ${row.value} (${row.reason})`;
  const how = row.discarder === null ? "self-drawn" : `from ${players[row.discarder]}`;
  const by = { points: "", typed: " · hand", scan: " · photo" }[row.source];
  return `${who} ${row.value}, ${how}${by}`;
}

// ---- drawing the sheet -------------------------------------------------------------------------

function segmentedPlayers(container, players, withSelfDrawn) {
  const winds = state.sheet.next_hand ? state.sheet.next_hand.seat_winds : players.map(() => "");
  container.innerHTML = players.map((p, i) => `<button type="button" data-value="${i}">${p} ${winds[i]}</button>`)
    .join("") + (withSelfDrawn ? '<button type="button" data-value="self">Self-drawn 自摸</button>' : "");
}

function pressButtons() {
  const pressed = { kind: state.kind, player: state.player, discarder: state.discarder === null ? "self" : state.discarder,
                    by: state.by };
  for (const [id, value] of Object.entries(pressed)) {
    document.querySelectorAll(`#${id} button`).forEach((b) => {
      b.setAttribute("aria-pressed", String(b.dataset.value === String(value)));
      if (id === "discarder") b.disabled = b.dataset.value === state.player;
    });
  }
  const shows = (list, value) => !list || list.split(" ").includes(value);
  document.querySelectorAll("[data-for], [data-by]").forEach((el) => {
    el.hidden = !(shows(el.dataset.for, state.kind) && shows(el.dataset.by, state.by));
  });
  $("#player-label").textContent = KIND_TITLES[state.kind] || "";
}

function renderEntryForm(sheet) {
  const upcoming = sheet.next_hand;
  $("#entry-section").hidden = false;
  if (!upcoming) {
    $("#hand-title").textContent = "All 16 hands played: penalties only 比赛结束";
    state.kind = "penalty";
  } else {
    const round = WIND_NAMES[upcoming.prevalent_wind];
    $("#hand-title").textContent = `Hand ${upcoming.number} of 16 · ${round} round`;
  }
  const winds = upcoming ? upcoming.seat_winds : null;
  $("#seats").replaceChildren(...sheet.players.map((p, i) => {
    const seat = document.createElement("span");
    seat.className = `seat${winds && winds[i] === "E" ? " you" : ""}`;
    seat.innerHTML = `${p}<b>${winds ? WIND_NAMES[winds[i]] : ""}</b>`;
    return seat;
  }));
  segmentedPlayers($("#player"), sheet.players, false);
  segmentedPlayers($("#discarder"), sheet.players, true);
  pressButtons();
}

function renderSheet(sheet) {
  const players = sheet.players;
  $("#sheet-section").hidden = false;
  $("#sheet thead").innerHTML = `<tr><th>#</th><th>Hand</th><th>Entry</th>${players.map((p) => `<th class="num">${p}</th>`)
    .join("")}</tr>`;
  $("#sheet tbody").replaceChildren(...sheet.rows.map((row) => {
    const tr = document.createElement("tr");
    tr.dataset.number = row.number;
    if (row.request) {
      tr.classList.add("opens");
      tr.addEventListener("click", () => openHand(row, players));
    }
    tr.innerHTML = `<td>${row.number}</td><td>${row.hand_number} ${row.prevalent_wind}</td>` +
      `<td>${describe(row, players)}</td>` +
      row.deltas.map((d) => `<td class="num ${d > 0 ? "plus" : d < 0 ? "minus" : ""}">${d ? sign(d) : "·"}</td>`).join("");
    return tr;
  }));
  const totals = sheet.rows.length ? sheet.rows[sheet.rows.length - 1].totals : players.map(() => 0);
  $("#sheet tfoot").innerHTML = `<tr><th colspan="3">Total</th>${totals.map((t) => `<th class="num">${t}</th>`).join("")}</tr>`;
  $("#undo").disabled = !sheet.rows.length;
  $("#export-csv").href = `/v1/matches/${state.id}/export?format=csv`;
  $("#export-json").href = `/v1/matches/${state.id}/export?format=json`;
  $("#standings-section").hidden = false;
  $("#standings-title").textContent = sheet.over ? "Final standings 排名" : "Standings so far";
  $("#standings tbody").replaceChildren(...sheet.standings.map((s) => {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td>${s.rank}</td><td>${s.name}</td><td class="num">${s.score}</td><td class="num">${s.table_points}</td>`;
    return tr;
  }));
}

function show(sheet) {
  state.sheet = sheet;
  state.id = sheet.id;
  problem("");
  renderEntryForm(sheet);
  renderSheet(sheet);
  history.replaceState(null, "", `/match?id=${sheet.id}`);
}

/** A row's hand, as typed or read from the photo: its tiles, and its fans as /v1/score gives them now. */
async function openHand(row, players) {
  try {
    const [hand, score] = await Promise.all([postJson("/v1/hand", { hand: row.request.hand }),
                                             postJson("/v1/score", row.request)]);
    const tiles = [...hand.melds.flatMap((m) => m.tiles), ...hand.concealed, hand.win_tile];
    $("#dialog-title").textContent = `Hand ${row.hand_number}: ${describe(row, players)}`;
    $("#dialog-source").textContent = `${row.source === "scan" ? "Read from a photo" : "Typed"}: ${hand.notation}`;
    $("#dialog-tiles").innerHTML = tiles.map((code) => `<span class="tile small">${tileSvg(BY_CODE.get(code))}</span>`).join("");
    $("#dialog-fans tbody").innerHTML = score.fans.map((f) => `<tr><td>${f.en}${f.count > 1 ? ` ×${f.count}` : ""}</td>` +
      `<td lang="zh">${f.zh}</td><td class="num">${f.points * f.count}</td></tr>`).join("");
    $("#dialog-total").textContent = score.total;
    $("#hand-dialog").showModal();
  } catch (error) {
    problem(error.message);
  }
}

// ---- entries -----------------------------------------------------------------------------------

function entryBody() {
  if (state.kind === "draw") return { kind: "draw" };
  if (state.player === undefined) throw new Error(`choose the ${KIND_TITLES[state.kind].toLowerCase()}`);
  const player = Number(state.player);
  if (state.kind === "false_win") return { kind: "false_win", player };
  if (state.kind === "penalty") {
    return { kind: "penalty", player, value: Number($("#penalty-points").value), reason: $("#reason").value };
  }
  if (state.discarder === undefined) throw new Error("choose who discarded the winning tile, or self-drawn");
  const discarder = state.discarder === null ? null : Number(state.discarder);
  if (state.by === "points") return { kind: "win", player, discarder, value: Number($("#points").value) };
  const conditions = [...document.querySelectorAll("[data-condition]:checked")].map((c) => c.dataset.condition);
  return { kind: "win", player, discarder, hand: $("#hand").value.trim(), conditions, source: state.source };
}

async function record() {
  try {
    show(await postJson(`/v1/matches/${state.id}/entries`, entryBody()));
    for (const id of ["#points", "#hand", "#penalty-points", "#reason"]) $(id).value = "";
    document.querySelectorAll("[data-condition]").forEach((c) => { c.checked = false; });
    Object.assign(state, { player: undefined, discarder: undefined, source: "typed" });
    pressButtons();
  } catch (error) {
    problem(error.message);
  }
}

/** A photo of the winning hand: /v1/scan reads it in the seat the sheet knows; its notation is then checked. */
async function scanPhoto(file) {
  const upcoming = state.sheet.next_hand;
  if (state.player === undefined || !upcoming) return problem("choose the winner first");
  const form = new FormData();
  form.append("photo", file);
  form.append("seat_wind", upcoming.seat_winds[Number(state.player)]);
  form.append("prevalent_wind", upcoming.prevalent_wind);
  form.append("win", state.discarder === null ? "self_drawn" : "discard");
  $("#status").textContent = "Reading the tiles…";
  try {
    const scan = await api("/v1/scan", { method: "POST", body: form });
    if (!scan.hand) throw new Error("no complete hand in this photo: type it, or take another photo");
    $("#hand").value = scan.hand.notation;
    state.source = "scan";
    $("#status").textContent = `Read: ${scan.hand.notation}${scan.doubts.length ? " (check it)" : ""}`;
  } catch (error) {
    $("#status").textContent = "";
    problem(error.message);
  }
}

// ---- matches -----------------------------------------------------------------------------------

async function listMatches(selected) {
  const matches = await api("/v1/matches");
  $("#match-list").innerHTML = matches.length ? matches.map((m) => `<option value="${m.id}">${m.id}. ${m.name || "match"}: ` +
    `${m.players.join(", ")}</option>`).join("") : "<option value=''>no match yet: start one below</option>";
  $("#new-match").open = !matches.length;
  const id = selected ?? (matches.length ? matches[0].id : null);
  if (id !== null) {
    $("#match-list").value = String(id);
    show(await api(`/v1/matches/${id}`));
  }
}

async function importFile(file) {
  const text = await file.text();
  const name = file.name.replace(/\.\w+$/, "");
  const body = file.name.toLowerCase().endsWith(".csv") ? { csv: text, name } : { sheet: JSON.parse(text), name };
  const sheet = await postJson("/v1/matches/import", body);
  await listMatches(sheet.id);
}

function setup() {
  const choose = (id, key) => $(id).addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    const value = button.dataset.value;
    state[key] = key === "discarder" && value === "self" ? null : value;
    if (key === "player" && state.discarder === value) state.discarder = undefined;
    pressButtons();
  });
  choose("#kind", "kind");
  choose("#player", "player");
  choose("#discarder", "discarder");
  choose("#by", "by");
  $("#record").addEventListener("click", record);
  $("#hand").addEventListener("input", () => { state.source = "typed"; });
  $("#photo").addEventListener("change", (event) => {
    if (event.target.files.length) scanPhoto(event.target.files[0]);
    event.target.value = "";
  });
  $("#undo").addEventListener("click", async () => {
    if (!confirm("Take back the last entry?")) return;
    try { show(await api(`/v1/matches/${state.id}/entries/last`, { method: "DELETE" })); } catch (error) { problem(error.message); }
  });
  $("#match-list").addEventListener("change", () => listMatches(Number($("#match-list").value)).catch((e) => problem(e.message)));
  $("#new-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = [...document.querySelectorAll("#new-form [name=player]")].map((input) => input.value.trim());
    try {
      const sheet = await postJson("/v1/matches", { players, name: $("#match-name").value.trim() });
      $("#new-match").open = false;
      await listMatches(sheet.id);
    } catch (error) { problem(error.message); }
  });
  $("#import-file").addEventListener("change", (event) => {
    if (event.target.files.length) importFile(event.target.files[0]).catch((e) => problem(e.message));
    event.target.value = "";
  });
}

async function start() {
  BY_CODE = await loadFaces();
  setup();
  const asked = new URLSearchParams(location.search).get("id");
  await listMatches(asked ? Number(asked) : null);
  document.body.dataset.ready = "true";
}

start().catch((error) => problem(`The page could not start: ${error.message}`));
