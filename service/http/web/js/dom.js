// Small DOM helpers: elements are built with these, never from HTML strings, so nothing a
// server or a player wrote is ever parsed as markup, and no inline style or script is needed.

const SVG = "http://www.w3.org/2000/svg";

/** An element: h("button", {class: "x", onclick: f}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  return fill(el, attrs, children);
}

/** An SVG element, with the same arguments as h. */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace an element's children. */
export function put(el, ...children) {
  el.replaceChildren();
  fill(el, {}, children);
  return el;
}

/** The element with this id (the pages' fixed skeleton). */
export const $ = (id) => document.getElementById(id);

/** "moth_duchess" -> "Moth Duchess". */
export function titled(name) {
  return String(name).split(/[_-]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

/** Show a message in the page's status line (role=status: read out by screen readers). */
export function say(text, kind = "info") {
  const el = $("status");
  if (!el) return;
  el.className = `status ${kind}`;
  el.textContent = text;
}
