//! How deep JSON nests: the bound on what the worker forwards to the agent as JSON (the body's
//! `context`, an answer in the last message's `parts`), so that every agent's parser reads the
//! frame that carries it.

/// The deepest nesting accepted, in levels of arrays and objects (`{}` is 1, `{"a":[]}` is 2).
/// serde_json, the worker's parser and any Rust agent's (the demo agent's), refuses JSON nested
/// deeper than 128 levels (its default recursion limit), counted from the top of the frame that
/// carries the value one or more levels down; half of that leaves the frame room, and is far
/// deeper than any page's context or any answer a person gives.
pub const MAX_JSON_DEPTH: usize = 64;

/// How deep `json` nests: the most arrays and objects open at once. `json` is text a parser
/// already read as JSON (a brace inside a string is text, skipped with the string).
pub fn nesting_depth(json: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for byte in json.bytes() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
#[path = "depth_tests.rs"]
mod tests;
