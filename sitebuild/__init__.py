"""The build, serving and test runner behind build.py (docs/build.md), one module per job.

Imports go one way, each module importing only those above it:

    common         paths, the site's fixed layout, BuildError, run(), hashes
    pins           pinned npm tarballs and PyPI wheels, fetched into .cache/ and checked
    wheel          the engine's wheel and pyodide-lock.json
    runtime        Pyodide's runtime script as the site ships it, and the site's Python library
    icon           the app icon (PNG)
    compress       the `.br` siblings of the big files
    integrity      the Content-Security-Policy, the integrity manifest, site-integrity.js
    page           the page's bundles and index.html
    boot           engine-build.js and the engine's identity (the kept snapshot's name)
    serviceworker  sw.js and its precache list
    site           build_site(): every file, assembled and written
    serve          the static server
    machine        Debian's packages and .venv/ the checks need
    testrun        `build.py test`: the checks and their summary

Only the standard library is imported: `build` and `serve` need nothing else, and `test` must
be able to start on a fresh machine before anything has been installed.
"""
