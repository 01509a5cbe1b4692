//! The Web Worker's protocol, pure std: one request string in, one JSON reply out (a stand-in body).
//!
//! The main thread posts a URL query string to the worker; the worker answers with
//! [`respond`]'s JSON. Before it listens, the worker posts [`READY`] once, so the main thread
//! knows when requests can no longer be lost. Every reply is a JSON object, so a reply never
//! equals [`READY`].

/// What the worker posts once its message handler is installed (never a JSON object).
pub const READY: &str = "ready";

/// Rounds of the stand-in's busy loop: roughly 50 ms of work in a release wasm build.
const STAND_IN_ROUNDS: u64 = 25_000_000;

/// Answers one request (a URL query string) with a JSON object.
///
/// Stand-in: the real simulator will replace the body and keep the signature. For now it parses
/// nothing, busy-computes a deterministic checksum seeded by the request, and echoes the request.
pub fn respond(request: &str) -> String {
    let sum = busy_sum(request, STAND_IN_ROUNDS);
    format!("{{\"echo\":\"{}\",\"sum\":{sum}}}", json_escape(request))
}

/// A deterministic checksum of `rounds` xorshift steps seeded by `seed`'s bytes; the optimizer
/// cannot fold it away.
fn busy_sum(seed: &str, rounds: u64) -> u64 {
    let mut x = seed
        .bytes()
        .fold(0x9E37_79B9_7F4A_7C15_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3));
    let mut sum = 0_u64;
    for _ in 0..std::hint::black_box(rounds) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        sum = sum.wrapping_add(x >> 32);
    }
    sum
}

/// `text` as the inside of a JSON string literal: quotes, backslashes and control characters
/// escaped, everything else (UTF-8 included) as is.
fn json_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoes_the_request_with_a_deterministic_sum() {
        let a = respond("?model=llama-3.1-8b&batch=64");
        assert!(a.starts_with("{\"echo\":\"?model=llama-3.1-8b&batch=64\",\"sum\":"));
        assert!(a.ends_with('}'));
        assert_eq!(a, respond("?model=llama-3.1-8b&batch=64"));
        assert_ne!(a, respond("?model=llama-3.1-70b"));
    }

    #[test]
    fn escapes_quotes_backslashes_and_control_characters() {
        assert_eq!(json_escape("a\"b\\c\n\u{1}é"), "a\\\"b\\\\c\\n\\u0001é");
    }

    #[test]
    fn a_reply_is_never_the_ready_signal() {
        assert!(respond(READY).starts_with('{'));
        assert!(respond("").starts_with('{'));
    }

    #[test]
    fn the_busy_sum_depends_on_seed_and_rounds() {
        assert_eq!(busy_sum("", 0), 0);
        assert_ne!(busy_sum("a", 1000), busy_sum("b", 1000));
        assert_ne!(busy_sum("a", 1000), busy_sum("a", 1001));
    }
}
