/** A tiny element builder: h("button", {class: "btn", onclick}, "Go"). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "style") el.style.cssText = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") listen(el, key.slice(2), value);
    else if (key in el && typeof value !== "string") {
      el[key] = value;
      (el.__props ||= {})[key] = value;
    }
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** One listener per element and event type, calling the element's current handler: a patch
 * hands a reused element the new render's handlers without touching its listeners. */
function listen(el, type, handler) {
  el.__on ||= {};
  if (!(type in el.__on)) el.addEventListener(type, dispatch);
  el.__on[type] = handler;
}

function dispatch(event) {
  return this.__on?.[event.type]?.call(this, event);
}

/** Replace all children of `el`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Make the children of `el` look like `children` (freshly built with `h`), reusing the nodes
 * already there: matched by `data-key` (or `id`) where present, else by tag in order. Only
 * what differs is changed, so focus, selection, scroll and running animations stay.
 */
export function patch(el, ...children) {
  const nodes = [];
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    nodes.push(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  patchChildren(el, nodes);
  return el;
}

/** A stand-in for `node` in a tree given to `patch`: the node itself goes there, untouched
 * (it keeps its own content, such as the chat panel with what is being typed). */
export function kept(node) {
  const stub = document.createElement("template");
  stub.__kept = node;
  return stub;
}

const keyOf = (node) => (node.nodeType === 1 ? node.getAttribute("data-key") ?? (node.id || null) : null);

function patchChildren(parent, wanted) {
  const old = [...parent.childNodes];
  const keyed = new Map();
  const loose = [];
  for (const node of old) {
    const key = keyOf(node);
    if (key !== null && !keyed.has(key)) keyed.set(key, node);
    else loose.push(node);
  }
  const used = new Set();
  let cursor = 0;
  wanted.forEach((wantedNode, i) => {
    const node = wantedNode.__kept ?? wantedNode;
    let match = null;
    if (node !== wantedNode || node.isConnected) match = node; // a node kept across renders
    else {
      const key = keyOf(node);
      if (key !== null) {
        const candidate = keyed.get(key);
        if (candidate && candidate.nodeName === node.nodeName && !used.has(candidate)) match = candidate;
      } else {
        for (let j = cursor; j < loose.length; j += 1) {
          if (loose[j].nodeName === node.nodeName && !used.has(loose[j])) {
            match = loose[j];
            cursor = j + 1;
            break;
          }
        }
      }
      if (match) morph(match, node);
    }
    const placed = match || node;
    used.add(placed);
    const here = parent.childNodes[i] ?? null;
    if (here !== placed) parent.insertBefore(placed, here);
  });
  for (const node of old) if (!used.has(node) && node.parentNode === parent) node.remove();
}

/** Make `target` look like `source` (same tag): text, attributes, handlers, properties, children. */
function morph(target, source) {
  if (target.nodeType !== 1) {
    if (target.nodeValue !== source.nodeValue) target.nodeValue = source.nodeValue;
    return;
  }
  for (const { name, value } of source.attributes) {
    if (target.getAttribute(name) === value) continue;
    // The Content-Security-Policy allows styles set through the CSSOM only, as `h` does.
    if (name === "style") target.style.cssText = source.style.cssText;
    else target.setAttribute(name, value);
  }
  for (const { name } of [...target.attributes]) {
    if (!source.hasAttribute(name)) target.removeAttribute(name);
  }
  const handlers = source.__on || {};
  for (const type of Object.keys(target.__on || {})) if (!(type in handlers)) target.__on[type] = undefined;
  for (const [type, handler] of Object.entries(handlers)) listen(target, type, handler);
  // A property set last time and not now goes back to what a fresh element has.
  for (const key of Object.keys({ ...target.__props, ...source.__props })) {
    if (target[key] !== source[key]) target[key] = source[key];
  }
  target.__props = source.__props;
  patchChildren(target, [...source.childNodes]);
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** A short message at the bottom of the screen; errors also reach screen readers. */
export function toast(message, kind = "error", ms = 5000) {
  const box = document.getElementById("toasts");
  const item = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  box.append(item);
  setTimeout(() => item.remove(), ms);
}
