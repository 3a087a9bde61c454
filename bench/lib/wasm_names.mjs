// The functions of a wasm module: each one's name (from its name section) and body size, by index.

/** { names: index → name, sizes: index → body bytes } of a wasm module's functions. */
export function functionsOf(bytes) {
  let at = 8;
  const leb = () => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (byte < 0x80) return value;
    }
  };
  const skipLimits = () => {
    const flags = leb();
    leb();
    if (flags & 1) leb();
  };
  const names = new Map();
  const sizes = new Map();
  let imported = 0;
  const utf8 = new TextDecoder();
  while (at < bytes.length) {
    const id = bytes[at++];
    const length = leb();
    const end = at + length;
    if (id === 2) {
      // Imports: functions imported come first in the index space.
      for (let n = leb(); n > 0; n--) {
        for (let part = 0; part < 2; part++) {
          const length = leb(); // `at += leb()` would add to `at` as it was before the read
          at += length;
        }
        const kind = bytes[at++];
        if (kind === 0) {
          leb();
          imported++;
        } else if (kind === 1) {
          at++;
          skipLimits();
        } else if (kind === 2) skipLimits();
        else if (kind === 3) at += 2;
      }
    } else if (id === 10) {
      const count = leb();
      for (let k = 0; k < count; k++) {
        const size = leb();
        sizes.set(imported + k, size);
        at += size;
      }
    } else if (id === 0) {
      const nameLength = leb();
      const name = utf8.decode(bytes.subarray(at, at + nameLength));
      at += nameLength;
      while (name === "name" && at < end) {
        const sub = bytes[at++];
        const subEnd = leb() + at;
        if (sub === 1) {
          for (let n = leb(); n > 0; n--) {
            const index = leb();
            const len = leb();
            names.set(index, utf8.decode(bytes.subarray(at, at + len)));
            at += len;
          }
        }
        at = subEnd;
      }
    }
    at = end;
  }
  return { names, sizes };
}
