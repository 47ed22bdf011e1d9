"""Whether a host name means this machine, in every spelling a resolver accepts.

`127.1`, `127.0.0.2`, `0x7f.1`, `LOCALHOST`, `::1` and `::ffff:127.0.0.1` all reach loopback, so a
check that lists a few spellings lets the others through (a DNS-rebinding page, a key sent over
plain http). Names are compared without resolving them: only `localhost` itself counts (read
from /etc/hosts). Not its subdomains: libpq and Python's resolver ask DNS for `evil.localhost`,
and a hostile network's resolver may answer with any address; nor any other name, which could
resolve anywhere tomorrow.
"""

from __future__ import annotations

import ipaddress


def is_loopback_host(host: str) -> bool:
    """True when `host` (a name or address, IPv6 possibly in brackets) is this machine."""
    name = host.strip().strip("[]").rstrip(".").lower()
    if name == "localhost":
        return True
    address: ipaddress.IPv4Address | ipaddress.IPv6Address
    try:
        address = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        import socket  # only for a spelling ipaddress does not read

        try:  # the short and hex forms inet_aton accepts: 127.1, 0x7f.0.0.1, 2130706433
            address = ipaddress.IPv4Address(socket.inet_aton(name))
        except (OSError, ValueError):
            return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback
