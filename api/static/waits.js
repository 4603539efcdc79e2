// The waits section: 13 or 14 held tiles -> POST /v1/waits -> each winning tile with its value, or, for 14
// tiles, the best discards. The tiles come typed, or from the hand above (a scan or a typed hand).
import { $ } from "./common.js";
import { tileSvg } from "./tiles.js";

const SHOWN_DISCARDS = 5;
const KIND_NAMES = { edge: "edge 边张", closed: "closed 坎张", single: "single 单钓", two_sided: "two-sided 两面",
                     pung: "pung 双碰", knitted: "knitted 组合龙", thirteen_orphans: "thirteen orphans 十三幺" };

const value = (win) => (win.is_win ? String(win.total) : `${win.fan_points} <small>under 8</small>`);

function waitRow(wait, face) {
  const row = document.createElement("tr");
  row.dataset.tile = wait.tile;
  row.innerHTML = `<td><span class="tile small">${tileSvg(face(wait.tile))}</span></td>` +
    `<td>${KIND_NAMES[wait.kind]}</td><td class="num">${wait.unseen}</td>` +
    `<td class="num discard">${value(wait.discard)}</td><td class="num drawn">${value(wait.self_drawn)}</td>`;
  return row;
}

function waitsTable(answer, face) {
  const table = document.createElement("table");
  table.className = "waits";
  table.innerHTML = "<thead><tr><th>Tile</th><th>Wait</th><th class=\"num\">Left</th><th class=\"num\">Discard</th>" +
    "<th class=\"num\">Self-drawn</th></tr></thead><tbody></tbody>";
  table.tBodies[0].replaceChildren(...answer.waits.map((w) => waitRow(w, face)));
  return table;
}

const verdict = (answer) => (answer.ready
  ? `Ready 听牌: ${answer.waits.length} winning tile(s), ${answer.waits.reduce((n, w) => n + w.unseen, 0)} left`
  : `Not ready: ${answer.shanten} tile(s) from ready (${answer.shanten} 向听)`);

function show(answer, face) {
  const out = $("#waits-answer");
  if (!answer.discards) {
    const line = document.createElement("p");
    line.className = "verdict";
    line.textContent = verdict(answer);
    out.replaceChildren(line, ...(answer.ready ? [waitsTable(answer, face)] : []));
    return;
  }
  const head = document.createElement("p");
  head.className = "verdict";
  head.textContent = answer.shanten < 0 ? "14 tiles: already a complete hand. Best discards:" : "14 tiles: best discards";
  out.replaceChildren(head, ...answer.discards.slice(0, SHOWN_DISCARDS).map((option) => {
    const block = document.createElement("details");
    block.className = "discard-option";
    block.dataset.tile = option.tile;
    block.open = option === answer.discards[0];
    block.innerHTML = `<summary>Discard <span class="tile small">${tileSvg(face(option.tile))}</span> ` +
      `${option.winning_tiles} tile(s) left to win on · ${verdict(option)}</summary>`;
    if (option.ready) block.append(waitsTable(option, face));
    return block;
  }));
}

/** Wire the section: `held()` gives the hand above as held tiles (Hand JSON, or throws), `seats()` the seat,
 *  round, discarder and flowers fields, `face(code)` a tile face for pictures, `post` the API call. */
export function setupWaits({ held, seats, face, post }) {
  const ask = async (hand) => {
    const problem = $("#waits-problem");
    problem.hidden = true;
    try {
      const seen = $("#seen").value.trim();
      show(await post("/v1/waits", { hand, ...seats(), ...(seen ? { seen } : {}) }), face);
    } catch (error) {
      $("#waits-answer").replaceChildren();
      problem.textContent = error.message;
      problem.hidden = false;
    }
  };
  $("#waits-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = $("#waits-notation").value.trim();
    if (typed) ask(typed);
  });
  $("#waits-from-hand").addEventListener("click", () => {
    try {
      ask(held());
    } catch (error) {
      $("#waits-problem").textContent = error.message;
      $("#waits-problem").hidden = false;
    }
  });
}
