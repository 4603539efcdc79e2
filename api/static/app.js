// The table-side page: photo -> POST /v1/scan; every correction or situation change -> POST /v1/score;
// the waits section (waits.js) -> POST /v1/waits.
// The page keeps the hand as groups of tiles (melds, standing tiles, winning tile, flowers); each tile
// remembers which detected box it came from, so the photo overlay follows the corrections.
import { $, WINDS, WIND_NAMES, api, loadFaces, postJson } from "./common.js";
import { tileSvg } from "./tiles.js";
import { setupWaits } from "./waits.js";

const FROM = { 1: "from the left 上家", 2: "from opposite 对家", 3: "from the right 下家" };
const ROLE_TITLES = { concealed: "Standing tiles 手牌", win: "Winning tile 和张", flowers: "Flowers 花牌" };

let BY_CODE = new Map();   // the tile vocabulary, from GET /v1/tiles
const state = {
  groups: [],              // {role, from, concealed, tiles: [{code, box}]}; box indexes the scan's tiles
  scan: null,              // the last /v1/scan answer
  doubtful: new Set(),     // box indices the scan doubts
  situation: { win: "discard", seat_wind: "E", prevalent_wind: "E", discarder: null, last_of_kind: false,
               kong_replacement: false, robbing_kong: false, last_wall_tile: false },
  flowers: null,           // a flower count set by hand, or null to count the flower tiles
};

// ---- the request fields -------------------------------------------------------------------------

function situationFields() {
  const fields = { ...state.situation };
  if (fields.win === "self_drawn" || fields.discarder === fields.seat_wind) fields.discarder = null;
  if (fields.discarder === null) delete fields.discarder;  // the API's default: the winner's left
  if (state.flowers !== null) fields.flowers = state.flowers;
  return fields;
}

/** The seat on the winner's left, who plays just before them: the usual discarder. */
const leftOf = (seat) => WINDS[(WINDS.indexOf(seat) + 3) % 4];

// ---- the hand as groups ------------------------------------------------------------------------

const tilesOf = (role) => state.groups.filter((g) => g.role === role).flatMap((g) => g.tiles.map((t) => t.code));
const byIndex = (a, b) => BY_CODE.get(a).index - BY_CODE.get(b).index;
const isBonus = (code) => ["flower", "season"].includes(BY_CODE.get(code).kind);

function meldKind(codes) {
  if (codes.length === 4) return "kong";
  return codes.every((c) => c === codes[0]) ? "pung" : "chow";
}

function meldJson(group) {
  const codes = group.tiles.map((t) => t.code);
  const kind = meldKind(codes);
  if (kind === "chow") return { kind, tiles: [...codes].sort(byIndex), from: 1 };
  if (kind === "kong" && group.concealed) return { kind, tiles: codes, concealed: true, from: null };
  return { kind, tiles: codes, from: group.from || 1 };
}

const meldsJson = () => state.groups.filter((g) => g.role === "meld" && g.tiles.length).map(meldJson);

function handJson() {
  const win = tilesOf("win");
  if (win.length !== 1) {
    throw new Error(win.length ? "only one winning tile: move the others to the standing tiles"
                               : "choose the winning tile: tap a tile and move it to “Winning tile”");
  }
  return { concealed: tilesOf("concealed"), melds: meldsJson(), win_tile: win[0], flowers: tilesOf("flowers") };
}

/** The hand above as held tiles for POST /v1/waits: its winning tile, if any, is one more standing tile. */
function heldJson() {
  if (!state.groups.length) throw new Error("no hand above yet: take a photo or type a hand, or type the tiles here");
  return { concealed: [...tilesOf("concealed"), ...tilesOf("win")], melds: meldsJson(), flowers: tilesOf("flowers") };
}

/** The situation fields a waits request takes: where the hand is played, not how it is won. */
function seatFields() {
  const { seat_wind, prevalent_wind, discarder, flowers } = situationFields();
  return Object.fromEntries(Object.entries({ seat_wind, prevalent_wind, discarder, flowers })
    .filter(([, v]) => v !== undefined));
}

/** Every hand has standing tiles, a winning tile and flowers to move tiles into, even when empty. */
function withAllRoles(groups) {
  for (const role of ["concealed", "win", "flowers"]) {
    if (!groups.some((g) => g.role === role)) groups.push({ role, tiles: [] });
  }
  return groups;
}

function groupsFromScan(scan) {
  const tile = (i) => ({ code: scan.tiles[i].code, box: i });
  if (scan.hand) {
    return scan.hand.groups.map((g) => ({ role: g.role, from: g.from, concealed: g.concealed, tiles: g.tiles.map(tile) }));
  }
  // No valid reading: offer every tile read, the rightmost playable one as the winning tile, to correct.
  const order = scan.tiles.map((t, i) => i).sort((a, b) => scan.tiles[a].box[0] - scan.tiles[b].box[0]);
  const bonus = order.filter((i) => isBonus(scan.tiles[i].code));
  const playable = order.filter((i) => !bonus.includes(i));
  return [
    { role: "concealed", tiles: playable.slice(0, -1).map(tile) },
    { role: "win", tiles: playable.slice(-1).map(tile) },
    { role: "flowers", tiles: bonus.map(tile) },
  ];
}

function groupsFromHand(hand) {
  const tiles = (codes) => codes.map((code) => ({ code, box: null }));
  return [
    ...hand.melds.map((m) => ({ role: "meld", from: m.from, concealed: m.concealed, tiles: tiles(m.tiles) })),
    { role: "concealed", tiles: tiles(hand.concealed) },
    { role: "win", tiles: tiles([hand.win_tile]) },
    { role: "flowers", tiles: tiles(Array.isArray(hand.flowers) ? hand.flowers : []) },
  ];
}

// ---- scoring -----------------------------------------------------------------------------------

async function rescore() {
  if (!state.groups.length) return;
  try {
    showScore(await postJson("/v1/score", { hand: handJson(), ...situationFields() }));
  } catch (error) {
    showProblem(error.message);
  }
}

function showProblem(message) {
  $("#problem").textContent = message;
  $("#problem").hidden = !message;
  if (message) $("#score-section").hidden = true;
}

function showScore(score) {
  showProblem("");
  $("#score-section").hidden = false;
  $("#hand-notation").textContent = score.hand;
  const verdict = $("#verdict");
  verdict.className = score.is_win ? "win" : "false";
  verdict.textContent = score.is_win ? `Mahjong! ${score.total} points 和牌`
    : score.error === "under_8" ? `Only ${score.fan_points} points without flowers: under 8, a false win 错和`
    : "Not a complete hand: a false win 错和";
  $("#fans tbody").replaceChildren(...score.fans.map((fan) => {
    const row = document.createElement("tr");
    const count = fan.count > 1 ? ` ×${fan.count}` : "";
    row.innerHTML = `<td>${fan.en}${count}<small>${fan.evidence.join("; ")}</small></td><td lang="zh">${fan.zh}</td>` +
      `<td class="num">${fan.points * fan.count}</td>`;
    return row;
  }));
  $("#total").textContent = score.total;
  $("#payouts").replaceChildren(...WINDS.map((seat) => {
    const cell = document.createElement("div");
    const amount = score.payouts[seat];
    cell.className = `seat${seat === score.situation.seat_wind ? " you" : ""}`;
    cell.dataset.seat = seat;
    cell.innerHTML = `${WIND_NAMES[seat]}${seat === score.situation.seat_wind ? " (winner)" : ""}` +
      `<b class="${amount >= 0 ? "plus" : "minus"}">${amount > 0 ? "+" : ""}${amount}</b>`;
    return cell;
  }));
}

// ---- drawing the hand and the photo ------------------------------------------------------------

function tileButton(t, onClick) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "tile";
  button.dataset.code = t.code;
  button.innerHTML = tileSvg(BY_CODE.get(t.code));
  button.title = BY_CODE.get(t.code).en;
  button.addEventListener("click", onClick);
  return button;
}

function groupTitle(group, number) {
  if (group.role !== "meld") return ROLE_TITLES[group.role];
  const kind = meldKind(group.tiles.map((t) => t.code));
  return `Meld ${number}: ${kind}`;
}

function sourceSelect(group) {
  const select = document.createElement("select");
  const kind = meldKind(group.tiles.map((t) => t.code));
  const options = Object.entries(FROM);
  if (kind === "kong") options.push(["concealed", "concealed 暗杠"]);
  select.innerHTML = options.map(([value, text]) => `<option value="${value}">${text}</option>`).join("");
  select.value = group.concealed && kind === "kong" ? "concealed" : String(group.from || 1);
  select.setAttribute("aria-label", "claimed from");
  select.addEventListener("change", () => {
    group.concealed = select.value === "concealed";
    group.from = group.concealed ? null : Number(select.value);
    render();
    rescore();
  });
  return select;
}

const ORDER = { meld: 0, concealed: 1, win: 2, flowers: 3 };

function renderGroups() {
  const container = $("#groups");
  container.replaceChildren();
  let meldNumber = 0;
  const ordered = state.groups.map((g, i) => [g, i]).sort(([a], [b]) => ORDER[a.role] - ORDER[b.role]);
  for (const [group, gi] of ordered) {
    if (group.role === "flowers" && !group.tiles.length) continue;
    if (group.role === "concealed") group.tiles.sort((a, b) => byIndex(a.code, b.code));
    const box = document.createElement("div");
    box.className = `group ${group.role}`;
    box.dataset.role = group.role;
    const head = document.createElement("header");
    head.textContent = groupTitle(group, group.role === "meld" ? ++meldNumber : 0);
    const kind = meldKind(group.tiles.map((t) => t.code));
    if (group.role === "meld" && kind !== "chow") head.append(sourceSelect(group));
    if (group.role === "meld" && kind === "chow") head.append(" from the left 上家");
    const tiles = document.createElement("div");
    tiles.className = "tiles";
    group.tiles.forEach((t, ti) => {
      const button = tileButton(t, () => openEditor(gi, ti));
      if (t.box !== null && state.doubtful.has(t.box)) button.classList.add("doubt");
      tiles.append(button);
    });
    const add = document.createElement("button");
    add.type = "button";
    add.className = "tile add";
    add.textContent = "+";
    add.title = "add a tile here";
    add.addEventListener("click", () => openEditor(gi, null));
    tiles.append(add);
    box.append(head, tiles);
    container.append(box);
  }
  const doubts = state.scan ? state.scan.doubts : [];
  $("#doubts").replaceChildren(...doubts.map((d) => {
    const item = document.createElement("li");
    const maybe = d.alternatives.length ? ` (maybe ${d.alternatives.join(", ")})` : "";
    item.textContent = d.message + maybe;
    return item;
  }));
  $("#hand-section").hidden = false;
}

function renderBoxes() {
  const scan = state.scan;
  const svg = $("#boxes");
  if (!scan) return;
  svg.setAttribute("viewBox", `0 0 ${scan.width} ${scan.height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const where = new Map();
  state.groups.forEach((g, gi) => g.tiles.forEach((t, ti) => { if (t.box !== null) where.set(t.box, [gi, ti]); }));
  const colour = { meld: "--meld", concealed: "--concealed", win: "--win", flowers: "--flowers" };
  svg.innerHTML = scan.tiles.map((t, i) => {
    const [x1, y1, x2, y2] = t.box;
    const at = where.get(i);
    const group = at ? state.groups[at[0]] : null;
    const code = group ? group.tiles[at[1]].code : t.code;
    const stroke = group ? `var(${colour[group.role]})` : "#999";
    const doubt = state.doubtful.has(i) ? " doubt" : "";
    return `<g class="box${doubt}" data-box="${i}"><rect x="${x1}" y="${y1}" width="${x2 - x1}" height="${y2 - y1}" ` +
      `stroke="${doubt ? "var(--doubt)" : stroke}"/><text x="${x1}" y="${y1 - 4}" font-size="${(y2 - y1) * 0.32}">${code}</text></g>`;
  }).join("");
  svg.querySelectorAll("g.box").forEach((g) => g.addEventListener("click", () => {
    const at = where.get(Number(g.dataset.box));
    if (at) openEditor(...at);
  }));
}

function render() {
  renderGroups();
  renderBoxes();
}

// ---- the tile editor ---------------------------------------------------------------------------

function moveTarget(label, action) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.addEventListener("click", () => { action(); $("#editor").close(); changed(); });
  return button;
}

function openEditor(gi, ti) {
  const group = state.groups[gi];
  const current = ti === null ? null : group.tiles[ti];
  // The face the detector scored second for this tile in the photo: the likeliest correction.
  const second = current && current.box !== null && state.scan ? state.scan.tiles[current.box].runner_up : null;
  $("#editor-title").textContent = current
    ? `${BY_CODE.get(current.code).en} · ${BY_CODE.get(current.code).zh}` : `Add a tile to ${groupTitle(group, "")}`;
  $("#faces").replaceChildren(...[...BY_CODE.values()].filter((f) => f.kind !== "back").map((f) => {
    const button = tileButton(f, () => {
      if (current) current.code = f.code;
      else group.tiles.push({ code: f.code, box: null });
      $("#editor").close();
      changed();
    });
    if (current && f.code === current.code) button.setAttribute("aria-current", "true");
    if (second && f.code === second.code) {
      button.dataset.suggested = "true";
      button.title += ` (the detector's second reading, ${second.confidence.toFixed(2)})`;
    }
    return button;
  }));
  $("#moves").hidden = !current;
  $("#remove").hidden = !current;
  if (current) {
    const take = () => group.tiles.splice(group.tiles.indexOf(current), 1)[0];
    const targets = [];
    let meldNumber = 0;
    const bonus = isBonus(current.code);
    state.groups.forEach((g) => {
      const number = g.role === "meld" ? ++meldNumber : 0;
      if (g === group || bonus !== (g.role === "flowers")) return;
      targets.push(moveTarget(groupTitle(g, number), () => {
        if (g.role === "win") {  // one winning tile: the old one goes back to the standing tiles
          const standing = state.groups.find((s) => s.role === "concealed");
          standing.tiles.push(...g.tiles.splice(0));
        }
        g.tiles.push(take());
      }));
    });
    if (!bonus) {
      targets.push(moveTarget("A new meld", () => {
        state.groups.push({ role: "meld", from: 1, concealed: false, tiles: [take()] });
      }));
    }
    $("#move-buttons").replaceChildren(...targets);
    $("#remove").onclick = () => { take(); $("#editor").close(); changed(); };
  }
  $("#editor").showModal();
}

function changed() {
  state.groups = state.groups.filter((g) => g.role !== "meld" || g.tiles.length);
  render();
  rescore();
}

// ---- the photo and the typed hand --------------------------------------------------------------

const MAX_SIDE = 3072;        // px: plenty for the detector's zoomed second look, a fraction of a phone photo
const SMALL_ENOUGH = 2.5e6;   // bytes: smaller photos go as they are

/** A phone photo shrunk to MAX_SIDE on its long side (EXIF orientation applied) before it crosses the
 *  LAN, as a JPEG; the original when already small, or when this browser cannot do it. */
async function shrink(file) {
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
    const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.size <= SMALL_ENOUGH) return file;
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92));
    return blob ? new File([blob], file.name.replace(/\.\w+$/, "") + ".jpg", { type: "image/jpeg" }) : file;
  } catch {
    return file;  // not decodable here (a HEIC photo outside Safari): the server reads it, or says what is wrong
  }
}

async function scanPhoto(original) {
  const status = $("#status");
  status.textContent = "Reading the tiles…";
  status.className = "busy";
  showProblem("");
  const file = await shrink(original);
  const form = new FormData();
  form.append("photo", file);
  for (const [name, value] of Object.entries(situationFields())) form.append(name, String(value));
  $("#shot").src = URL.createObjectURL(file);
  $("#figure").hidden = false;
  try {
    const scan = await api("/v1/scan", { method: "POST", body: form });
    state.scan = scan;
    state.doubtful = new Set(scan.doubts.flatMap((d) => d.tiles));
    state.groups = withAllRoles(groupsFromScan(scan));
    status.textContent = `${scan.tiles.length} tiles read` + (scan.doubts.length ? `, ${scan.doubts.length} to check` : "");
    render();
    if (scan.score) showScore(scan.score);
    else await rescore();
  } catch (error) {
    status.textContent = "";
    showProblem(error.message);
  } finally {
    status.classList.remove("busy");
  }
}

async function typedHand(event) {
  event.preventDefault();
  const notation = $("#notation").value.trim();
  if (!notation) return;
  try {
    const hand = await postJson("/v1/hand", { hand: notation });
    state.scan = null;
    state.doubtful = new Set();
    state.groups = withAllRoles(groupsFromHand(hand));
    $("#figure").hidden = true;
    render();
    await rescore();
  } catch (error) {
    showProblem(error.message);
  }
}

// ---- the situation controls --------------------------------------------------------------------

function setupSituation() {
  for (const field of ["seat_wind", "prevalent_wind"]) {
    document.querySelector(`.segmented[data-field="${field}"]`).innerHTML =
      WINDS.map((w) => `<button type="button" data-value="${w}">${WIND_NAMES[w]}</button>`).join("");
  }
  document.querySelector('.segmented[data-field="discarder"]').innerHTML =
    WINDS.map((w) => `<button type="button" data-value="${w}">${WIND_NAMES[w]}</button>`).join("");
  const pressSegments = () => {
    const { seat_wind: seat, win } = state.situation;
    if (state.situation.discarder === seat) state.situation.discarder = null;
    const discarder = state.situation.discarder ?? leftOf(seat);
    document.querySelectorAll(".segmented").forEach((seg) => {
      const field = seg.dataset.field;
      seg.querySelectorAll("button").forEach((b) => {
        const value = field === "discarder" ? discarder : state.situation[field];
        b.setAttribute("aria-pressed", String(value === b.dataset.value));
        if (field === "discarder") b.disabled = b.dataset.value === seat;
      });
    });
    $("#discarder-field").hidden = win === "self_drawn";
  };
  document.querySelectorAll(".segmented button").forEach((button) => button.addEventListener("click", () => {
    state.situation[button.parentElement.dataset.field] = button.dataset.value;
    pressSegments();
    rescore();
  }));
  document.querySelectorAll(".check input").forEach((box) => box.addEventListener("change", () => {
    state.situation[box.dataset.field] = box.checked;
    rescore();
  }));
  const showFlowers = () => { $("#flowers-count").textContent = state.flowers === null ? "auto" : state.flowers; };
  $("#flowers-up").addEventListener("click", () => {
    state.flowers = Math.min(8, (state.flowers ?? tilesOf("flowers").length) + 1);
    showFlowers();
    rescore();
  });
  $("#flowers-down").addEventListener("click", () => {
    const now = state.flowers ?? tilesOf("flowers").length;
    state.flowers = now <= 0 ? null : now - 1;
    showFlowers();
    rescore();
  });
  pressSegments();
}

async function start() {
  BY_CODE = await loadFaces();
  setupSituation();
  $("#photo").addEventListener("change", (event) => {
    if (event.target.files.length) scanPhoto(event.target.files[0]);
    event.target.value = "";
  });
  $("#typed").addEventListener("submit", typedHand);
  setupWaits({ held: heldJson, seats: seatFields, face: (code) => BY_CODE.get(code), post: postJson });
  document.body.dataset.ready = "true";
}

start().catch((error) => showProblem(`The page could not start: ${error.message}`));
