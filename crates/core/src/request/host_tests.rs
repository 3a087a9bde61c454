//! Tests of `request::host`.

use super::*;

#[test]
fn public_names_and_addresses_pass() {
    for host in [
        "files.example",
        "cdn.example.com.",
        "a-b_c.example",
        "xn--bcher-kva.example",
        "8.8.8.8",
        "1.1.1.1",
        "[2606:4700::1111]",
        "[::ffff:8.8.8.8]",
        "[64:ff9b::808:808]",
        "localhost.example",
        "example.localhost1",
    ] {
        assert_eq!(check_host(host), Ok(()), "{host}");
    }
}

#[test]
fn the_machine_and_its_network_are_refused() {
    for host in [
        "127.0.0.1",
        "127.0.0.1.",
        "10.0.0.1",
        "172.16.0.1",
        "172.31.255.255",
        "192.168.1.1",
        "169.254.169.254",
        "0.0.0.0",
        "0.1.2.3",
        "100.64.0.1",
        "100.127.255.255",
        "192.0.0.1",
        "198.18.0.1",
        "224.0.0.1",
        "240.0.0.1",
        "255.255.255.255",
        "[::]",
        "[::1]",
        "[fe80::1]",
        "[fc00::1]",
        "[fd12:3456::1]",
        "[fec0::1]",
        "[ff02::1]",
        "[::ffff:127.0.0.1]",
        "[::ffff:7f00:1]",
        "[::ffff:169.254.169.254]",
        "[::127.0.0.1]",
        "[64:ff9b::a00:1]",
        "[2001:db8::1]",
    ] {
        assert_eq!(check_host(host), Err(HostFault::NotPublic), "{host}");
    }
    for host in [
        "localhost",
        "LOCALHOST",
        "localhost.",
        "a.localhost",
        "x.Localhost.",
    ] {
        assert_eq!(check_host(host), Err(HostFault::Localhost), "{host}");
    }
}

#[test]
fn what_a_parser_could_read_as_another_address_is_refused() {
    for host in [
        "2130706433",
        "0x7f000001",
        "0x7f.0.0.1",
        "127.1",
        "0177.0.0.1",
        "127.0.0.01",
        "example.0x",
        "example.123",
        "8.8.8.8.8",
        "256.0.0.1",
    ] {
        assert_eq!(check_host(host), Err(HostFault::NumberNotDotted), "{host}");
    }
    for host in [
        "%31%32%37.0.0.1",
        "１２７.0.0.1",
        "bücher.example",
        "a b",
        "a@b",
        "a\\b",
    ] {
        assert_eq!(check_host(host), Err(HostFault::Character), "{host}");
    }
    for host in ["[::1", "[fe80::1%25eth0]", "[127.0.0.1]", "[]"] {
        assert_eq!(check_host(host), Err(HostFault::BadIpv6), "{host}");
    }
    assert_eq!(check_host(""), Err(HostFault::Empty));
}

mod against_std {
    //! The addresses read here are those `std::net` reads (less IPv6 zone ids, which it refuses
    //! too): every text of the characters addresses are made of, and every address as `std`
    //! writes it.
    use super::super::{parse_v4, parse_v6};
    use proptest::prelude::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn any_text_reads_as_std_reads_it(text in "[0-9a-fA-F:.]{0,41}") {
            prop_assert_eq!(parse_v6(&text).map(Ipv6Addr::from), text.parse::<Ipv6Addr>().ok(), "{}", text);
            prop_assert_eq!(parse_v4(&text).map(Ipv4Addr::from), text.parse::<Ipv4Addr>().ok(), "{}", text);
        }

        #[test]
        fn near_addresses_read_as_std_reads_them(text in "([0-9a-f]{0,5}:){0,9}(([0-9]{1,4}\\.){0,4}[0-9]{0,4}|[0-9a-f]{0,5})") {
            prop_assert_eq!(parse_v6(&text).map(Ipv6Addr::from), text.parse::<Ipv6Addr>().ok(), "{}", text);
        }

        #[test]
        fn every_address_reads_back(bits: u128, v4: u32) {
            let ip = Ipv6Addr::from(bits);
            prop_assert_eq!(parse_v6(&ip.to_string()).map(Ipv6Addr::from), Some(ip));
            let mapped = format!("::ffff:{}", Ipv4Addr::from(v4));
            prop_assert_eq!(parse_v6(&mapped).map(Ipv6Addr::from), mapped.parse::<Ipv6Addr>().ok());
            let ip4 = Ipv4Addr::from(v4);
            prop_assert_eq!(parse_v4(&ip4.to_string()).map(Ipv4Addr::from), Some(ip4));
        }
    }
}

proptest::proptest! {
    /// No host makes the check panic: any text, and any of the characters hosts are made of.
    #[test]
    fn no_host_panics(any in "\\PC{0,24}", near in "[0-9a-zA-Z.:\\[\\]%é-]{0,24}") {
        let _ = check_host(&any);
        let _ = check_host(&near);
        let _ = check_host(&format!("[{near}]"));
    }
}
