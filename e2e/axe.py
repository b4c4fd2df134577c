"""An accessibility audit of the page on screen with axe-core (issue 27), for the tests only.

axe-core is fetched from npm at test time into .cache/ (pinned by its registry integrity, as
build.py pins the site's packages: sitebuild/pins.py) and injected into the page under test; it
is never part of the built site.  `audit(page)` returns the serious and critical findings.
"""

from __future__ import annotations

from typing import Any

from sitebuild.pins import package_file

AXE_PACKAGE = "axe-core"
AXE_VERSION = "4.14.1"
AXE_INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="  # noqa: E501
BAD = ("serious", "critical")


def axe_source() -> str:
    """axe-core's browser script, from the pinned npm tarball (downloaded once into .cache/)."""
    return package_file(AXE_PACKAGE, AXE_VERSION, AXE_INTEGRITY, "axe.min.js").decode("utf-8")


def audit(page: Any, where: str = "") -> list[dict[str, Any]]:
    """The serious and critical axe-core findings on the page now (WCAG 2.x A and AA rules):
    [{"id", "impact", "help", "nodes": [targets]}]; `where` names the screen in the findings.
    (axe is asked for its violations alone: it then keeps one node of each pass, not every one,
    which is most of its work on a screen with few findings.)"""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          const r = await axe.run(document, { runOnly: { type: 'tag',
            values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
            resultTypes: ['violations'] });
          return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
        }""")
    return [dict(f, where=where) for f in found if f["impact"] in BAD]
