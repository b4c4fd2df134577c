// The one owner of keyboard shortcuts: one keydown listener for the page. A screen that takes
// keys marks an element of its own with onKeys(element, handler); while that element is on the
// page, keys go to it first (innermost last drawn first), then to the page's own shortcuts
// (? help, r the spell reference). A handler that uses a key calls event.preventDefault().

const HANDLER = Symbol('keys');

/** isTyping(target) -> whether a key pressed there is text being typed (a text field, a list, an editable block). */
export function isTyping(target) {
  if (!target || typeof target !== 'object' || !('tagName' in target)) return false;
  if (target.isContentEditable) return true;
  if (target.tagName === 'INPUT') return !['radio', 'checkbox', 'button', 'submit'].includes(target.type);
  return target.tagName === 'SELECT' || target.tagName === 'TEXTAREA';
}

/** onKeys(element, handler(event)) gives the element's keys to handler while it is on the page; returns the element. */
export function onKeys(element, handler) {
  element[HANDLER] = handler;
  element.dataset.keys = '';
  return element;
}

/**
 * installKeys({root, isBlocked, shortcuts}) listens once on root's document: screens' handlers
 * first, then `shortcuts` ({key: action}) unless a modifier is held, the player is typing or
 * isBlocked() (a dialog is open). Returns the listener's removal.
 */
export function installKeys({ root, isBlocked, shortcuts }) {
  const doc = root.ownerDocument;
  const listener = (event) => {
    const marked = [...root.querySelectorAll('[data-keys]')].reverse();
    for (const element of marked) {
      if (event.defaultPrevented) return;
      if (element[HANDLER]) element[HANDLER](event);
    }
    if (event.defaultPrevented || isBlocked() || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
    const action = shortcuts[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };
  doc.addEventListener('keydown', listener);
  return () => doc.removeEventListener('keydown', listener);
}
