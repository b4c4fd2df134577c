// Tiny DOM helpers shared by every renderer. Building nodes (never innerHTML) keeps names and
// engine-supplied text from being interpreted as markup.

/** h(tag, attrs, ...children) -> Element; attrs: on* = listener, data/aria/other = attribute, class/text. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'class') {
      el.className = value;
    } else if (key === 'text') {
      el.textContent = value;
    } else if (key === 'style') {
      // Through the CSSOM: a style="" attribute is inline style, which the site's CSP refuses.
      el.style.cssText = value;
    } else if (key === 'checked' || key === 'selected' || key === 'disabled' || key === 'value') {
      // Properties, not attributes: they must reflect the live state after re-renders.
      el[key] = value;
      if (key === 'disabled' && value) el.setAttribute('disabled', '');
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/**
 * nameOf(name) -> a <bdi> holding a wizard's name: whatever script or direction the name is
 * written in stays inside it and cannot reorder the sentence around it (issue 12.5).
 */
export function nameOf(name) {
  return h('bdi', { class: 'name' }, String(name ?? ''));
}

/**
 * named(text) -> the text as nodes, each name a sentence isolated (U+2068 ... U+2069, the words'
 * isolate) in its own <bdi> (nameOf): a sentence from ui/words/ drawn with its names as elements.
 */
export function named(text) {
  return String(text).split(/\u2068([^\u2069]*)\u2069/).map((part, i) => (i % 2 ? nameOf(part) : part)).filter((part) => part !== '');
}

/** append(parent, children) adds nodes/strings (nested arrays flattened, null skipped) to parent. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** replace(parent, ...children) empties parent and fills it with children. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/**
 * createKeyed() -> fill(parent, items): parent's children made from items ({key, draw} or null),
 * in order, where a child drawn before for the same key (a string: the data it was drawn from)
 * stays in place untouched and only the others are drawn (draw() -> Element or null) and put in:
 * a redraw that changes one part of a form costs the browser that part's style, layout, text
 * shaping and paint, not the whole form's. Children fill did not put in are removed.
 */
export function createKeyed() {
  const keys = new WeakMap(); // element -> the key it was drawn for
  return function fill(parent, items) {
    const drawn = new Map();
    for (const child of parent.children) if (keys.has(child)) drawn.set(keys.get(child), child);
    const elements = [];
    for (const item of items) {
      if (!item) continue;
      let el = drawn.get(item.key);
      if (el) drawn.delete(item.key);
      else {
        el = item.draw();
        if (!el) continue;
        keys.set(el, item.key);
      }
      elements.push(el);
    }
    return placeInOrder(parent, elements);
  };
}

/**
 * placeInOrder(parent, elements) makes elements parent's children, in that order, moving only
 * those out of place (a child left where it is is not restyled or repainted), and removes the
 * other children; returns parent.
 */
export function placeInOrder(parent, elements) {
  let at = parent.firstChild;
  for (const el of elements) {
    if (el === at) at = at.nextSibling;
    else parent.insertBefore(el, at);
  }
  while (at) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
  return parent;
}

/** focusFirst(root) moves focus to root's heading (or root) so screen readers announce the new screen. */
export function focusFirst(root) {
  const target = root.querySelector('[data-autofocus]') || root.querySelector('h1, h2') || root;
  if (!target.hasAttribute('tabindex') && !/^(BUTTON|INPUT|SELECT|TEXTAREA|A)$/.test(target.tagName)) {
    target.setAttribute('tabindex', '-1');
  }
  target.focus({ preventScroll: false });
}
