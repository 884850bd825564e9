"""axe-core, run in the page by the browser tests: its serious and critical violations.

axe-core 4.14.1 is kept in tests/web/vendor/axe-core/ as npm publishes it (axe.min.js and its
MPL-2.0 licence, from the tarball whose npm integrity is sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/
pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==); the file is checked against its
SHA-256 before it runs, so a changed copy fails the test instead of testing something else.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
BLOCKING = ("serious", "critical")


@cache
def axe_source() -> str:
    """The pinned axe-core, refused if it is not the file we pinned."""
    data = AXE.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    assert digest == AXE_SHA256, f"{AXE} is not axe-core 4.14.1 as pinned (sha256 {digest})"
    return data.decode()


async def blocking_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands, one line each
    (rule, impact, the first element, its help): empty when the page passes."""
    if not await page.evaluate("typeof window.axe === 'object'"):
        await page.evaluate(axe_source())  # evaluated by the browser's debugger: no CSP applies
    result = await page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}) at {v['nodes'][0]['target']}: {v['help']}"
            for v in result["violations"] if v["impact"] in BLOCKING]
