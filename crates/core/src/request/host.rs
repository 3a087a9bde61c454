//! Whether an `https:` URL's host names a place the agent may fetch from: a public name or a
//! public IP address, never the agent's own machine or network (SSRF, OWASP API7).
//!
//! The host is read as a WHATWG URL parser (an agent's `fetch`, `new URL`) would read it, and
//! anything such a parser could read as another address is refused rather than guessed at: a
//! name of ASCII letters, digits, `-`, `_` and `.` only (no `%` escape, no Unicode a parser would
//! map to digits: an international name goes in punycode), an IPv4 address only in dotted
//! decimal (WHATWG reads `2130706433`, `0x7f.1` or `127.1` as 127.0.0.1: a host whose last label
//! is a number is an IPv4 address, RFC 3986's forms or not), an IPv6 address in brackets. The
//! addresses are read here, not by `std::net`'s parser (3.1 KB of the production wasm's code, a
//! third of all these checks cost): they read what `std::net` reads, as the tests against it
//! check, zone ids refused by both.

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
        let ip = parse_v6(literal).ok_or(HostFault::BadIpv6)?;
        return public_v6(Ipv6Addr::from(ip))
            .then_some(())
            .ok_or(HostFault::NotPublic);
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
    let last = &name[name
        .bytes()
        .rposition(|b| b == b'.')
        .map_or(0, |dot| dot + 1)..];
    let under = name.len().checked_sub(".localhost".len());
    let is_local = |from: usize| name[from..].eq_ignore_ascii_case(".localhost");
    if name.eq_ignore_ascii_case("localhost") || under.is_some_and(is_local) {
        return Err(HostFault::Localhost);
    }
    if is_number_label(last) {
        let ip = parse_v4(name).ok_or(HostFault::NumberNotDotted)?;
        return public_v4(Ipv4Addr::from(ip))
            .then_some(())
            .ok_or(HostFault::NotPublic);
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

/// An IPv4 address in dotted decimal: four numbers from 0 to 255, without leading zeros (which
/// some parsers read as octal).
fn parse_v4(text: &str) -> Option<[u8; 4]> {
    let mut octets = [0u8; 4];
    let mut parts = text.split('.');
    for octet in &mut octets {
        let part = parts.next()?;
        let digits = part.bytes().all(|b| b.is_ascii_digit());
        if !digits || part.is_empty() || part.len() > 3 || part.len() > 1 && part.starts_with('0') {
            return None;
        }
        let value = part.bytes().fold(0u16, |n, b| n * 10 + u16::from(b - b'0'));
        *octet = u8::try_from(value).ok()?;
    }
    parts.next().is_none().then_some(octets)
}

/// An IPv6 address (RFC 4291 section 2.2): eight groups of 1 to 4 hex digits, one `::` for a run
/// of zero groups, and its last 32 bits in IPv4's dotted decimal if they are written so.
fn parse_v6(text: &str) -> Option<[u16; 8]> {
    let mut groups = [0u16; 8];
    let (mut text, mut tail) = (text, 0);
    if text.bytes().any(|b| b == b'.') {
        let at = text.bytes().rposition(|b| b == b':')?;
        let [a, b, c, d] = parse_v4(&text[at + 1..])?;
        groups[6] = u16::from_be_bytes([a, b]);
        groups[7] = u16::from_be_bytes([c, d]);
        tail = 2;
        // The groups before it, less the colon that ends them (a `::` kept whole).
        text = if text[..at].ends_with(':') {
            &text[..=at]
        } else {
            &text[..at]
        };
    }
    let double = |text: &str| text.as_bytes().windows(2).position(|w| w == b"::");
    let (head, rest, compressed) = match double(text) {
        Some(at) => (&text[..at], &text[at + 2..], true),
        None => (text, "", false),
    };
    let mut read = [0u16; 8];
    let mut count = 0;
    for half in [head, rest] {
        for group in half.split(':').filter(|_| !half.is_empty()) {
            let hex = group.bytes().all(|b| b.is_ascii_hexdigit());
            if !hex || group.is_empty() || group.len() > 4 || count + tail >= 8 {
                return None;
            }
            read[count] = group.bytes().fold(0u16, |n, b| {
                n << 4 | (char::from(b).to_digit(16).unwrap_or(0) as u16)
            });
            count += 1;
        }
        if !compressed {
            break;
        }
    }
    let in_head = head.split(':').filter(|_| !head.is_empty()).count();
    if compressed && (double(rest).is_some() || count + tail > 7)
        || !compressed && count + tail != 8
    {
        return None;
    }
    // The head's groups first, the rest's last before the IPv4 tail, zeros between.
    let rest_at = 8 - tail - (count - in_head);
    groups[..in_head].copy_from_slice(&read[..in_head]);
    groups[rest_at..8 - tail].copy_from_slice(&read[in_head..count]);
    Some(groups)
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
