// Cards drawn by the page: an SVG face (rank, a sigil, a title) or a back. No images.

import { h, s } from "../dom.js";

/** A card face: a rounded frame, the rank in the corner, a sigil, the title; ``code`` (the card
 * as views write it) lets hovering or tapping it show its text (cardinfo.js). */
export function cardFace({ rank, title, suit = "", colour = "ink", sigil = "◆", size = "m", extra = "", code = null }) {
  const label = `${title}${rank !== undefined && rank !== "" ? ` (${rank})` : ""}`;
  return h("figure", { class: `card ${size} ${colour} ${extra}`, role: "img", "aria-label": label, title: label,
    "data-card": code },
    s("svg", { viewBox: "0 0 60 84", "aria-hidden": "true", focusable: "false" },
      s("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-frame" }),
      s("text", { x: 6, y: 16, class: "card-rank" }, String(rank ?? "")),
      s("text", { x: 6, y: 27, class: "card-suit" }, suit),
      s("text", { x: 30, y: 54, class: "card-sigil", "text-anchor": "middle" }, sigil)),
    h("figcaption", {}, title));
}

/** A face-down card (a count may be drawn on it). */
export function cardBack(count, size = "s", what = "face-down card") {
  const label = count === undefined ? what : `${count} ${what}${count === 1 ? "" : "s"}`;
  return h("figure", { class: `card back ${size}`, role: "img", "aria-label": label, title: label },
    s("svg", { viewBox: "0 0 60 84", "aria-hidden": "true", focusable: "false" },
      s("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "back-frame" }),
      s("path", { d: "M30 14 L48 42 L30 70 L12 42 Z", class: "back-sigil" }),
      count === undefined ? null : s("text", { x: 30, y: 47, class: "back-count", "text-anchor": "middle" }, String(count))));
}
