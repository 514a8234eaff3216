"""This machine's address on the local network, for phones on the same network.

Found without sending anything: connecting a UDP socket only asks the routing
table which local address would reach a private network, and ``hostname -I``
lists the addresses of the interfaces. Loopback and link-local addresses are
useless to a phone and are left out.
"""

from __future__ import annotations

import ipaddress
import socket
import subprocess

# Private destinations, one per private range: nothing is sent to them.
PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def _routed_address() -> str | None:
    for probe in PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))
            except OSError:
                continue
            address = udp.getsockname()[0]
        if _usable(address):
            return address
    return None


def _interface_addresses() -> list[str]:
    try:
        listed = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=2, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [address for address in listed.split() if _usable(address)]


def lan_address() -> str | None:
    """Return this machine's IPv4 address on the local network, or None if none is found."""
    address = _routed_address()
    if address:
        return address
    addresses = _interface_addresses()
    return addresses[0] if addresses else None
