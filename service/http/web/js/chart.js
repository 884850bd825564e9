// A rating history as a small inline SVG line chart: μ at the start and after each rated match,
// with the band μ ± σ around it, and the axis's top and bottom written out. No chart library: a polyline and a
// polygon, scaled by hand, styled by the stylesheet (no inline style).

import { s } from "./dom.js";

const WIDTH = 480;
const HEIGHT = 200;
const PAD = { left: 40, right: 12, top: 12, bottom: 28 };

/** The chart of `points` ([{mu, sigma}]: the start, then after each match), labelled `label`
 * for screen readers. */
export function ratingChart(points, label) {
  const lows = points.map((p) => p.mu - p.sigma);
  const highs = points.map((p) => p.mu + p.sigma);
  let [bottom, top] = [Math.min(...lows), Math.max(...highs)];
  if (top - bottom < 1) [bottom, top] = [bottom - 0.5, top + 0.5];
  const x = (i) => PAD.left + (points.length === 1 ? 0.5 : i / (points.length - 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (v) => PAD.top + (1 - (v - bottom) / (top - bottom)) * (HEIGHT - PAD.top - PAD.bottom);
  const at = (i, v) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`;
  const band = [...points.map((p, i) => at(i, p.mu + p.sigma)), ...points.map((p, i) => at(i, p.mu - p.sigma)).reverse()];
  const last = points.length - 1;
  return s("svg", { class: "chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label },
    s("title", {}, label),
    s("line", { class: "axis", x1: PAD.left, y1: HEIGHT - PAD.bottom, x2: WIDTH - PAD.right, y2: HEIGHT - PAD.bottom }),
    s("line", { class: "axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: HEIGHT - PAD.bottom }),
    s("text", { class: "tick", x: PAD.left - 4, y: y(top) + 4, "text-anchor": "end" }, top.toFixed(0)),
    s("text", { class: "tick", x: PAD.left - 4, y: y(bottom), "text-anchor": "end" }, bottom.toFixed(0)),
    s("text", { class: "tick", x: PAD.left, y: HEIGHT - 8 }, "start"),
    s("text", { class: "tick", x: WIDTH - PAD.right, y: HEIGHT - 8, "text-anchor": "end" },
      `after ${last} rated match${last === 1 ? "" : "es"}`),
    s("polygon", { class: "band", points: band.join(" ") }),
    s("polyline", { class: "line", points: points.map((p, i) => at(i, p.mu)).join(" ") }),
    points.map((p, i) => s("circle", { class: "dot", cx: x(i).toFixed(1), cy: y(p.mu).toFixed(1), r: i === last ? 4 : 2.5 })));
}
