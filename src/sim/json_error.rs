//! Reading JSON with errors that name the field: "script[2].do: unknown variant …".
//!
//! serde_json reports where in the text it stopped (line and column), not which field it
//! was in. The field path is recovered here by scanning the text up to that point — one
//! small function instead of a path-tracking deserializer, which would be compiled again
//! for every type in the scenario format and cost the WASM bundle tens of kilobytes.

use serde::de::DeserializeOwned;

/// Parse `text` as a `T`; on failure, "PATH: what serde_json said" (just what it said when
/// the problem is not inside any field, e.g. the text is not JSON at all).
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| {
        let path = path_at(text, e.line(), e.column());
        if path.is_empty() {
            e.to_string()
        } else {
            format!("{path}: {e}")
        }
    })
}

/// Read a `T` out of an already parsed JSON value (a part of a larger document); the error
/// names the path inside the value, without a line and column that would mean nothing.
pub fn from_value<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, String> {
    let text = value.to_string();
    serde_json::from_str(&text).map_err(|e| {
        let path = path_at(&text, e.line(), e.column());
        let what = e.to_string();
        let what = what
            .strip_suffix(&format!(" at line {} column {}", e.line(), e.column()))
            .unwrap_or(&what);
        if path.is_empty() {
            what.to_string()
        } else {
            format!("{path}: {what}")
        }
    })
}

enum Frame {
    /// In an object: the key whose value is being read, once its `:` has been seen.
    Object(Option<String>),
    /// In an array: the index of the element being read.
    Array(usize),
}

/// The field path (`a.b[2].c`) at a 1-based line and column (in bytes, as serde_json counts).
/// Line 0 means "no position" (serde_json's errors that are not about the text).
pub fn path_at(text: &str, line: usize, column: usize) -> String {
    if line == 0 {
        return String::new();
    }
    let end = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum::<usize>()
        + column;
    let mut bytes = &text.as_bytes()[..end.min(text.len())];
    // An error found after a value was read (a check on the whole object, as `Action`'s
    // `try_from` makes) is placed on the byte after it, a `,` or `]`: it is about that
    // value, so scan only up to its closing bracket.
    if let Some((b',' | b']', before)) = bytes.split_last() {
        if let Some(at) = before.iter().rposition(|b| !b.is_ascii_whitespace()) {
            if matches!(before[at], b'}' | b']') {
                bytes = &before[..=at];
            }
        }
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut pending_key: Option<String> = None;
    let mut whole_array = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => stack.push(Frame::Object(None)),
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                if i + 1 < bytes.len() {
                    stack.pop();
                } else {
                    // An error on a closing bracket is about that object or array itself
                    // (a missing field, a wrong length), not about its last member.
                    match stack.last_mut() {
                        Some(Frame::Object(key)) => *key = None,
                        Some(Frame::Array(_)) => whole_array = true,
                        None => {}
                    }
                }
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object(key)) => *key = None,
                None => {}
            },
            b':' => {
                if let Some(Frame::Object(key)) = stack.last_mut() {
                    *key = pending_key.take();
                }
            }
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                // A string where a key is expected is the key; elsewhere it is a value.
                if let Some(Frame::Object(None)) = stack.last() {
                    let raw = &bytes[start..i.min(bytes.len())];
                    pending_key = Some(String::from_utf8_lossy(raw).into_owned());
                }
            }
            _ => {}
        }
        i += 1;
    }
    // A key read but not yet followed by `:` is what the error is about (an unknown field).
    if let (Some(key), Some(Frame::Object(slot @ None))) = (pending_key, stack.last_mut()) {
        *slot = Some(key);
    }
    let mut path = String::new();
    let last = stack.len().saturating_sub(1);
    for (depth, frame) in stack.iter().enumerate() {
        match frame {
            Frame::Object(Some(key)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Frame::Object(None) => {}
            Frame::Array(_) if whole_array && depth == last => {}
            Frame::Array(n) => path.push_str(&format!("[{n}]")),
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        name: String,
        items: Vec<Item>,
        net: Net,
    }
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Item {
        id: u32,
        #[serde(default)]
        tags: Vec<String>,
    }
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Net {
        delay: u64,
    }

    fn err(text: &str) -> String {
        from_str::<Outer>(text).unwrap_err()
    }

    #[test]
    fn the_error_names_the_field_it_is_in() {
        let ok = r#"{"name":"a","items":[{"id":1},{"id":2,"tags":["x"]}],"net":{"delay":3}}"#;
        assert!(from_str::<Outer>(ok).is_ok());
        let cases = [
            (ok.replace(r#""delay":3"#, r#""delay":"x""#), "net.delay: invalid type"),
            (ok.replace(r#""id":2"#, r#""id":-2"#), "items[1].id: invalid value"),
            (ok.replace(r#"["x"]"#, r#"["x",7]"#), "items[1].tags[1]: invalid type"),
            (ok.replace(r#"{"id":1}"#, r#"{"id":1,"ix":0}"#), "items[0].ix: unknown field `ix`"),
            (ok.replace(r#"{"id":1}"#, r#"{}"#), "items[0]: missing field `id`"),
            (ok.replace(r#","net":{"delay":3}"#, ""), "missing field `net`"),
            // keys with escapes, a pretty-printed file, an error on a later line
            (
                "{\n  \"name\": \"a \\\" b\",\n  \"items\": [\n    {\"id\": 1},\n    {\"id\": true}\n  ],\n  \"net\": {\"delay\": 1}\n}".into(),
                "items[1].id: invalid type: boolean `true`",
            ),
        ];
        for (text, want) in cases {
            let got = err(&text);
            assert!(
                got.starts_with(want),
                "{text}\n  got:  {got}\n  want: {want}…"
            );
        }
        // Not JSON at all: serde_json's own words, with no path.
        assert!(
            err("{ nope").starts_with("key must be a string"),
            "{}",
            err("{ nope")
        );
        assert!(err("").starts_with("EOF while parsing"), "{}", err(""));

        // A check made after the whole object is read (`Action`'s try_from) names that object.
        let actions = r#"[{"do":"acquire","worker":"A"}, {"do":"fly"} ]"#;
        let e = from_str::<Vec<crate::Action>>(actions).unwrap_err();
        assert!(e.starts_with("[1]: unknown variant `fly`"), "{e}");

        let v: serde_json::Value = serde_json::from_str(&cases_net_bad()).unwrap();
        assert_eq!(
            from_value::<Outer>(&v).unwrap_err(),
            "net.delay: invalid type: string \"x\", expected u64"
        );
    }

    fn cases_net_bad() -> String {
        r#"{"name":"a","items":[],"net":{"delay":"x"}}"#.to_string()
    }
}
