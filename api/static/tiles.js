// Tile pictures, drawn as SVG by this code from a tile's kind and rank (see GET /v1/tiles):
// characters as numeral + 萬, dots and bamboo as arranged pips, honours and flowers as characters.

const W = 60, H = 80;
const INK = { blue: "#1d3f8f", red: "#c0282d", green: "#1b7a43", black: "#1d2233" };
const CJK = "'Noto Serif CJK SC','Noto Serif CJK TC','Songti SC','STSong','Noto Sans CJK SC','PingFang SC','Microsoft YaHei',serif";
const TRADITIONAL = { "东": "東", "发": "發", "万": "萬", "兰": "蘭" };

// Pip centres in the 60x74 face for ranks 1-9 (dots; bamboo uses its own rows below).
const DOTS = [
  [[30, 38]],
  [[30, 20], [30, 56]],
  [[15, 15], [30, 38], [45, 61]],
  [[18, 22], [42, 22], [18, 54], [42, 54]],
  [[17, 18], [43, 18], [30, 38], [17, 58], [43, 58]],
  [[19, 14], [41, 14], [19, 40], [41, 40], [19, 62], [41, 62]],
  [[13, 11], [30, 19], [47, 27], [19, 46], [41, 46], [19, 64], [41, 64]],
  [[19, 11], [41, 11], [19, 29], [41, 29], [19, 47], [41, 47], [19, 65], [41, 65]],
  [[14, 15], [30, 15], [46, 15], [14, 38], [30, 38], [46, 38], [14, 61], [30, 61], [46, 61]],
];
const DOT_R = [13, 10, 8.5, 8.5, 8, 7.5, 6.5, 6.5, 6.5];
const DOT_INK = [
  ["blue"], ["green", "blue"], ["blue", "red", "green"], ["blue", "green", "green", "blue"],
  ["blue", "green", "red", "green", "blue"], ["green", "green", "red", "red", "red", "red"],
  ["green", "green", "green", "red", "red", "red", "red"], Array(8).fill("blue"),
  ["blue", "blue", "blue", "red", "red", "red", "green", "green", "green"],
];
// Bamboo: rows of stick centres (x list per row, y) and the stick length for the rank.
const STICKS = [
  null,
  [[[30], 22], [[30], 56]],
  [[[30], 22], [[19, 41], 56]],
  [[[19, 41], 22], [[19, 41], 56]],
  [[[17, 43], 22], [[30], 39], [[17, 43], 56]],
  [[[14, 30, 46], 22], [[14, 30, 46], 56]],
  [[[30], 14], [[14, 30, 46], 39], [[14, 30, 46], 64]],
  [[[12, 24, 36, 48], 22], [[12, 24, 36, 48], 56]],
  [[[14, 30, 46], 14], [[14, 30, 46], 39], [[14, 30, 46], 64]],
];

function text(x, y, size, fill, chars, weight = 700) {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${fill}" font-family="${CJK}" ` +
    `font-weight="${weight}" text-anchor="middle" dominant-baseline="central">${chars}</text>`;
}

function dots(rank) {
  return DOTS[rank - 1].map(([x, y], i) => {
    const r = DOT_R[rank - 1], ink = INK[DOT_INK[rank - 1][i]];
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" stroke="${ink}" stroke-width="${r / 3}"/>` +
      `<circle cx="${x}" cy="${y}" r="${r / 3}" fill="${ink}"/>`;
  }).join("");
}

function bamboo(rank) {
  if (rank === 1) {  // the bird
    return `<ellipse cx="30" cy="44" rx="13" ry="18" fill="${INK.green}"/>` +
      `<circle cx="30" cy="20" r="8" fill="${INK.green}"/><circle cx="32" cy="18" r="2" fill="#fff"/>` +
      `<path d="M37 20 l8 3 l-8 2z" fill="${INK.red}"/><path d="M22 58 l-8 12 h14z M38 58 l8 12 h-14z" fill="${INK.red}"/>`;
  }
  const long = rank === 7 || rank === 9 ? 20 : 28;
  return STICKS[rank - 1].flatMap(([xs, y], row) => xs.map((x) => {
    const ink = (rank === 9 && x === 30) || (rank === 5 && row === 1) || (rank === 7 && row === 0) ? INK.red : INK.green;
    return `<rect x="${x - 3.5}" y="${y - long / 2}" width="7" height="${long}" rx="3.5" fill="${ink}"/>` +
      `<line x1="${x - 3.5}" x2="${x + 3.5}" y1="${y}" y2="${y}" stroke="#fbf8ef" stroke-width="1.4"/>`;
  })).join("");
}

function face(t) {
  const zh = [...t.zh].map((c) => TRADITIONAL[c] || c);
  switch (t.kind) {
    case "m": return text(30, 22, 24, INK.black, zh[0]) + text(30, 56, 30, INK.red, "萬");
    case "p": return dots(t.rank);
    case "s": return bamboo(t.rank);
    case "wind": return text(30, 40, 40, INK.black, zh[0]);
    case "dragon":
      if (t.rank === 3) {
        return `<rect x="12" y="12" width="36" height="52" rx="3" fill="none" stroke="${INK.blue}" stroke-width="4"/>` +
          `<rect x="19" y="19" width="22" height="38" fill="none" stroke="${INK.blue}" stroke-width="2"/>`;
      }
      return text(30, 40, 42, t.rank === 1 ? INK.red : INK.green, zh[0]);
    case "flower": case "season": {
      const ink = t.kind === "flower" ? "#a8325e" : INK.blue;
      return text(12, 11, 12, ink, String(t.rank), 600) + text(31, 42, 34, ink, zh[0]);
    }
    default: return "";
  }
}

/** An <svg> picture of a tile face; `t` is a face from GET /v1/tiles. */
export function tileSvg(t) {
  if (t.kind === "back") {
    return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${t.en}"><rect x="1" y="1" width="58" height="78" rx="7" fill="#2f8a5f" stroke="#1d5c3e" stroke-width="1.5"/></svg>`;
  }
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${t.en}">` +
    `<rect x="1" y="5" width="58" height="74" rx="7" fill="#2f8a5f"/>` +
    `<rect x="1" y="1" width="58" height="74" rx="7" fill="#fbf8ef" stroke="#b9b09a" stroke-width="1.5"/>` +
    `${face(t)}</svg>`;
}
