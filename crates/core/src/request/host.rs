//! Whether an `https:` URL's host names a place the agent may fetch from: a public name or a
//! public IP address, never the agent's own machine or network (SSRF, OWASP API7).
//!
//! The host is read as a WHATWG URL parser (an agent's `fetch`, `new URL`) would read it, and
//! anything such a parser could read as another address is refused rather than guessed at: a
//! name of ASCII letters, digits, `-`, `_` and `.` only (no `%` escape, no Unicode a parser would
//! map to digits: an international name goes in punycode), an IPv4 address only in dotted
//! decimal (WHATWG reads `2130706433`, `0x7f.1` or `127.1` as 127.0.0.1: a host whose last label
//! is a number is an IPv4 address, RFC 3986's forms or not), an IPv6 address in brackets.

use std::net::{Ipv4Addr, Ipv6Addr};

/// Why a host is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostFault {
    Empty,
    /// A character other than ASCII letters, digits, `-`, `_` and `.`.
    Character,
    /// `localhost` or a name under it (RFC 6761 section 6.3: always the machine itself).
    Localhost,
    /// A last label that is a number, not in dotted decimal form (`127.1`, `0x7f.0.0.1`).
    NumberNotDotted,
    /// An IPv6 literal that does not parse.
    BadIpv6,
    /// An IP address that is not public (private, loopback, link-local, …).
    NotPublic,
}

impl HostFault {
    /// What is wrong, as the end of "its host …".
    pub fn says(&self) -> &'static str {
        match self {
            HostFault::Empty => "is empty",
            HostFault::Character => {
                "has a character other than ASCII letters, digits, `-`, `_` and `.` (an international name goes in punycode)"
            }
            HostFault::Localhost => "is `localhost`, the agent's own machine",
            HostFault::NumberNotDotted => {
                "ends in a number but is not an IPv4 address in dotted decimal (four numbers 0 to 255)"
            }
            HostFault::BadIpv6 => "is not an IPv6 address",
            HostFault::NotPublic => {
                "is an IP address that is not public (private, loopback, link-local, shared, reserved or the like): the agent's own network"
            }
        }
    }
}

/// Checks `host`, the part of an `https:` URL's authority before any `:port`.
pub fn check_host(host: &str) -> Result<(), HostFault> {
    if let Some(inner) = host.strip_prefix('[') {
        let literal = inner.strip_suffix(']').ok_or(HostFault::BadIpv6)?;
        let ip: Ipv6Addr = literal.parse().map_err(|_| HostFault::BadIpv6)?;
        return public_v6(ip).then_some(()).ok_or(HostFault::NotPublic);
    }
    if host.is_empty() {
        return Err(HostFault::Empty);
    }
    if !host
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    {
        return Err(HostFault::Character);
    }
    // A trailing dot names the same host (`localhost.`, `127.0.0.1.`).
    let name = host.strip_suffix('.').unwrap_or(host);
    let last = name.rsplit('.').next().unwrap_or(name);
    let lower = name.to_ascii_lowercase();
    if lower == "localhost" || lower.ends_with(".localhost") {
        return Err(HostFault::Localhost);
    }
    if is_number_label(last) {
        let ip: Ipv4Addr = name.parse().map_err(|_| HostFault::NumberNotDotted)?;
        return public_v4(ip).then_some(()).ok_or(HostFault::NotPublic);
    }
    Ok(())
}

/// Whether a WHATWG parser reads `label`, a host's last, as a number (its "ends in a number"
/// check): all decimal digits, or `0x` and hex digits.
fn is_number_label(label: &str) -> bool {
    let hex = label
        .strip_prefix("0x")
        .or_else(|| label.strip_prefix("0X"));
    match hex {
        Some(digits) => digits.bytes().all(|b| b.is_ascii_hexdigit()),
        None => !label.is_empty() && label.bytes().all(|b| b.is_ascii_digit()),
    }
}

/// Whether an IPv4 address is public: none of IANA's special-purpose blocks (RFC 6890) that
/// reach the machine or its network, nor the reserved ones.
pub fn public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    !(a == 0 // "this network" (RFC 791), 0.0.0.0 among it
        || ip.is_private() // 10/8, 172.16/12, 192.168/16 (RFC 1918)
        || ip.is_loopback() // 127/8
        || ip.is_link_local() // 169.254/16, cloud metadata among it
        || (a == 100 && (b & 0xc0) == 64) // 100.64/10, shared address space (CGNAT, RFC 6598)
        || (a == 192 && b == 0 && ip.octets()[2] == 0) // 192.0.0/24, IETF assignments (RFC 6890)
        || ip.is_documentation() // 192.0.2/24, 198.51.100/24, 203.0.113/24 (RFC 5737)
        || (a == 198 && (b & 0xfe) == 18) // 198.18/15, benchmarking (RFC 2544)
        || ip.is_multicast() // 224/4
        || a >= 240) // 240/4 reserved, 255.255.255.255 broadcast
}

/// Whether an IPv6 address is public; one that carries an IPv4 address (mapped, compatible,
/// NAT64) is as public as that address.
pub fn public_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    if let Some(v4) = ip.to_ipv4_mapped() {
        return public_v4(v4); // ::ffff:0:0/96
    }
    if s[..6] == [0; 6] {
        // ::/96: the unspecified and loopback addresses, and the deprecated IPv4-compatible ones.
        return false;
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        // 64:ff9b::/96, NAT64 (RFC 6052): the IPv4 address in its last 32 bits.
        let [.., a, b, c, d] = ip.octets();
        return public_v4(Ipv4Addr::new(a, b, c, d));
    }
    !((s[0] & 0xfe00) == 0xfc00 // fc00::/7, unique local (RFC 4193)
        || (s[0] & 0xffc0) == 0xfe80 // fe80::/10, link-local
        || (s[0] & 0xffc0) == 0xfec0 // fec0::/10, site-local (deprecated, RFC 3879)
        || (s[0] & 0xff00) == 0xff00 // ff00::/8, multicast
        || (s[0] == 0x2001 && s[1] == 0x0db8) // 2001:db8::/32, documentation (RFC 3849)
        || s[0] == 0x0100 && s[1..4] == [0; 3]) // 100::/64, discard-only (RFC 6666)
}

#[cfg(test)]
#[path = "host_tests.rs"]
mod tests;
