"""Which ports are open, and the sentinels of the turn's open sub-decision.

Shared by the state, the rules and the views, so it imports only the data table.
"""

from __future__ import annotations

from .data import PORTS, Port

NO_PENDING = -1
"""``pending`` when no sub-decision is open (otherwise a port number, or:)."""
PENDING_MARKET = -2
"""``pending`` while a black-market ship waits for swap-or-draw."""


def open_ports(num_players: int) -> tuple[Port, ...]:
    """Ports open with this many players (players + 3, assumed), in board order."""
    return tuple(port for port in PORTS if port.min_players <= num_players)


OPEN_PORTS: dict[int, tuple[Port, ...]] = {n: open_ports(n) for n in range(2, 6)}
PORT_NUMBER: dict[int, dict[str, int]] = {
    n: {port.name: i for i, port in enumerate(ports)} for n, ports in OPEN_PORTS.items()
}
