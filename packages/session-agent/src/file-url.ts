// Which file parts an agent may be given to fetch or read: the adapter's rules
// (crates/core/src/request/files.rs and host.rs in the adapter's repository), kept here too, so
// that a prompt from another client, or a history stored before the adapter checked, never points
// the model's provider (or the agent) at the agent's own machine or network (SSRF), and never
// holds a URL that `new URL` throws on at every later turn. tests/fixtures/file-urls.json holds
// the cases both sides are tested with.

/** The longest `mediaType`, in bytes: RFC 6838 section 4.2, a type and a subtype of at most 127
 * characters each (127 + 1 + 127). */
export const MAX_MEDIA_TYPE_BYTES = 255;

/** The longest `filename`, in bytes of UTF-8: the most a file's name may have on the common
 * filesystems (ext4, XFS, APFS: 255 bytes; NTFS: 255 UTF-16 units). */
export const MAX_FILENAME_BYTES = 255;

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** An adapter's URL of a session's file (docs/files.md: `<origin>/api/sessions/<session>/files/
 * <file id>`, signed or not): `http:` or `https:`, a host without a user name, the session's id of
 * 1 to 128 of A-Z a-z 0-9 . _ : -, and the file's 32 hex digits. */
const ADAPTER_FILE = /^https?:\/\/[A-Za-z0-9.:[\]-]+\/api\/sessions\/([A-Za-z0-9._:-]{1,128})\/files\/([0-9a-f]{32})(?:\?[A-Za-z0-9=&%_.-]*)?$/;

/**
 * The key of the adapter's bucket (`FILES`) that `url` names when it is the adapter's URL of a
 * session's file (`sessions/<session>/files/<file id>`), else `null`. Such a URL is taken whatever
 * its host (`127.0.0.1` in a local run): the adapter made it, and the agent reads its bytes through
 * the bucket's binding, never by fetching the URL (./ai-sdk/files.ts).
 */
export function adapterFileKey(url: string): string | null {
  const match = ADAPTER_FILE.exec(url);
  return match === null ? null : `sessions/${match[1]}/files/${match[2]}`;
}

/** Why a file part may not be given to the agent, or `null` when it may. */
export function fileFault(file: { url: string; mediaType: string; filename?: string }): string | null {
  const url = adapterFileKey(file.url) !== null ? null : fileUrlFault(file.url);
  if (url !== null) return `its url ${url}`;
  if (bytes(file.mediaType) > MAX_MEDIA_TYPE_BYTES) return `its mediaType is over ${MAX_MEDIA_TYPE_BYTES} bytes`;
  if (file.filename !== undefined && bytes(file.filename) > MAX_FILENAME_BYTES) return `its filename is over ${MAX_FILENAME_BYTES} bytes`;
  return null;
}

/** Why `url` may not be given to the agent, or `null` when it may: an `https://` URL of a public
 * host (no user name or password), or a `data:` URL with a media type and `;base64`. Checked as
 * written: what a WHATWG parser would read differently (spaces, control characters, `\`, an
 * `https:` without `//`) is refused, not repaired. */
export function fileUrlFault(url: string): string | null {
  if (/[\u0000-\u0020\u007f\\]/.test(url)) return "has a space, a control character or a backslash";
  const colon = url.indexOf(":");
  const scheme = colon < 0 ? "" : url.slice(0, colon).toLowerCase();
  const rest = url.slice(colon + 1);
  if (scheme === "https") return httpsFault(rest);
  if (scheme === "data") return dataFault(rest);
  return "is neither https: nor data:";
}

function httpsFault(rest: string): string | null {
  if (!rest.startsWith("//")) return "is an https: URL without // and a host";
  const after = rest.slice(2);
  const end = after.search(/[/?#]/);
  const authority = end < 0 ? after : after.slice(0, end);
  if (authority.includes("@")) return "has a user name or password";
  // An IPv6 literal has colons of its own: the port comes after its `]`.
  const close = authority.lastIndexOf("]");
  const portAt = close >= 0 ? authority.indexOf(":", close) : authority.indexOf(":");
  const host = portAt < 0 ? authority : authority.slice(0, portAt);
  if (portAt >= 0) {
    const port = authority.slice(portAt + 1);
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return "has a port that is not a number from 1 to 65535";
  }
  const fault = hostFault(host);
  return fault === null ? null : `has a host that ${fault}`;
}

function hostFault(host: string): string | null {
  const notPublic = "is an IP address that is not public";
  if (host.startsWith("[")) {
    const ip = host.endsWith("]") ? parseIpv6(host.slice(1, -1)) : null;
    if (ip === null) return "is not an IPv6 address";
    return publicV6(ip) ? null : notPublic;
  }
  if (host === "") return "is empty";
  if (!/^[A-Za-z0-9._-]+$/.test(host)) return "has a character other than ASCII letters, digits, -, _ and .";
  const name = host.endsWith(".") ? host.slice(0, -1) : host;
  const lower = name.toLowerCase();
  if (lower === "localhost" || lower.endsWith(".localhost")) return "is localhost";
  const last = name.slice(name.lastIndexOf(".") + 1);
  // WHATWG's "ends in a number": such a host is an IPv4 address, whatever its form.
  if (/^\d+$/.test(last) || /^0x[0-9a-f]*$/i.test(last)) {
    const ip = parseIpv4(name);
    if (ip === null) return "ends in a number but is not an IPv4 address in dotted decimal";
    return publicV4(ip) ? null : notPublic;
  }
  return null;
}

/** Four numbers 0 to 255 in decimal, without leading zeros (as Rust's `Ipv4Addr` reads them). */
function parseIpv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

/** Eight 16-bit groups, `::` for a run of zeros, an IPv4 address in the last 32 bits allowed. */
function parseIpv6(text: string): number[] | null {
  let groups = text;
  const tail: number[] = [];
  if (text.includes(".")) {
    const at = text.lastIndexOf(":");
    const v4 = at < 0 ? null : parseIpv4(text.slice(at + 1));
    if (v4 === null) return null;
    tail.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    // The groups before it, without the colon that ends them (a `::` kept whole).
    groups = text.slice(0, text[at - 1] === ":" ? at + 1 : at);
  }
  const halves = groups.split("::");
  if (halves.length > 2) return null;
  const read = (half: string) => (half === "" ? [] : half.split(":"));
  const [head, rest] = [read(halves[0]), halves.length === 2 ? read(halves[1]) : []];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const count = head.length + rest.length + tail.length;
  if (halves.length === 1 ? count !== 8 : count > 7) return null;
  const zeros = Array(8 - count).fill(0);
  return [...head.map((g) => parseInt(g, 16)), ...zeros, ...rest.map((g) => parseInt(g, 16)), ...tail];
}

/** Not "this network", private, loopback, link-local, shared (CGNAT), IETF, documentation,
 * benchmarking, multicast or reserved. */
function publicV4([a, b, c]: number[]): boolean {
  return !(
    a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || (a === 192 && b === 0 && c === 0) ||
    (a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113) ||
    (a === 198 && (b === 18 || b === 19)) || a >= 224
  );
}

/** As public as the IPv4 address inside (mapped, NAT64); not ::/96, unique local, link-local,
 * site-local, multicast, documentation or discard-only. */
function publicV6(s: number[]): boolean {
  const v4 = () => [s[6] >> 8, s[6] & 0xff, s[7] >> 8, s[7] & 0xff];
  const zeros = (from: number, to: number) => s.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && s[5] === 0xffff) return publicV4(v4());
  if (zeros(0, 6)) return false;
  if (s[0] === 0x64 && s[1] === 0xff9b && zeros(2, 6)) return publicV4(v4());
  return !(
    (s[0] & 0xfe00) === 0xfc00 || (s[0] & 0xffc0) === 0xfe80 || (s[0] & 0xffc0) === 0xfec0 ||
    (s[0] & 0xff00) === 0xff00 || (s[0] === 0x2001 && s[1] === 0x0db8) || (s[0] === 0x0100 && zeros(1, 4))
  );
}

/** A `data:` URL after its scheme: `type/subtype[;parameters];base64,` and base64 (RFC 2397). */
function dataFault(rest: string): string | null {
  const comma = rest.indexOf(",");
  const header = comma < 0 ? "" : rest.slice(0, comma);
  // `type/subtype`, each a name of RFC 6838's characters (section 4.2).
  const names = header.split(";")[0].split("/");
  const isName = (part: string) => /^[A-Za-z0-9!#$&^_.+-]+$/.test(part);
  if (comma < 0 || !/;base64$/i.test(header) || names.length !== 2 || !names.every(isName)) {
    return "is a data: URL without a media type and ;base64 before its comma";
  }
  return /^[A-Za-z0-9+/=]*$/.test(rest.slice(comma + 1)) ? null : "is a data: URL whose data is not base64";
}
