"""``bench.web`` reads ``wrk``'s figures right (the load itself needs wrk and a server)."""

from __future__ import annotations

from bench.web import figures_of

WRK = """Running 20s test @ http://127.0.0.1:8302
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   182.28ms   60.12ms 512.00ms   70.00%
  Latency Distribution
     50%  182.30ms
     75%  220.00ms
     90%  266.80ms
     99%    1.02s
  3334 requests in 20.01s, 54.13MB read
  Socket errors: connect 0, read 0, write 0, timeout 3
  Non-2xx or 3xx responses: 7
Requests/sec:    166.65
Transfer/sec:      2.70MB
"""


def test_the_figures_are_read_in_milliseconds_with_the_errors() -> None:
    figures = figures_of(WRK)
    assert figures["rps"] == 166.65
    assert (figures["p50"], figures["p90"], figures["p99"]) == (182.3, 266.8, 1020.0)
    assert figures["errors"] == 7 and figures["socket_errors"] == 1


def test_a_clean_run_has_no_errors_and_microseconds_are_read_too() -> None:
    clean = WRK.replace("  Socket errors: connect 0, read 0, write 0, timeout 3\n", "")
    clean = clean.replace("  Non-2xx or 3xx responses: 7\n", "").replace("182.30ms", "950.00us")
    figures = figures_of(clean)
    assert round(figures["p50"], 6) == 0.95
    assert figures["errors"] == 0 and figures["socket_errors"] == 0
