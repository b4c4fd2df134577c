"""Remote play without a referee (docs/protocol.md).

`codes` is the wire format (pure), `session` the state machine of one player's side, `engine`
the adapter through which the session calls the engine in Python, and `json_api` the JSON entry
points that `wavinghands.api` re-exports for the page.  Nothing outside this package and the
face (`api`) imports it.
"""
