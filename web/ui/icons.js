// The one drawing the page uses: a raised open hand, as inline SVG so it needs no emoji font.

const NS = 'http://www.w3.org/2000/svg';
const HAND_PATHS = [
  'M18 11V6a2 2 0 0 0-4 0',
  'M14 10V4a2 2 0 0 0-4 0v2',
  'M10 10.5V6a2 2 0 0 0-4 0v8',
  'M18 8a2 2 0 1 1 4 0v6a8 8 0 0 1-8 8h-2c-2.8 0-4.5-.9-6-2.3l-3.6-3.6a2 2 0 0 1 2.8-2.8L7 15',
];

/** handIcon(className) -> a decorative (aria-hidden) SVG hand that takes the text colour. */
export function handIcon(className = 'sigil') {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('fill', 'none');
  svg.setAttribute('stroke', 'currentColor');
  svg.setAttribute('stroke-width', '1.8');
  svg.setAttribute('stroke-linecap', 'round');
  svg.setAttribute('stroke-linejoin', 'round');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', className);
  for (const d of HAND_PATHS) {
    const path = document.createElementNS(NS, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}
