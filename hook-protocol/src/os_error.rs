//! Operating-system errors in the workspace's messages.

use std::io;

/// The text of an I/O error, starting in lower case like every message of the workspace
/// (`no such file or directory (os error 2)`), so that an OS error reads the same wherever it
/// is reported.
///
/// ```
/// let e = std::io::Error::from(std::io::ErrorKind::NotFound);
/// assert_eq!(hook_protocol::os_error_text(&e), "entity not found");
/// ```
pub fn os_error_text(error: &io::Error) -> String {
    let text = error.to_string();
    let mut chars = text.chars();
    match chars.next() {
        Some(first)
            if first.is_uppercase() && !chars.clone().next().is_some_and(char::is_uppercase) =>
        {
            first.to_lowercase().chain(chars).collect()
        }
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_letter_is_lower_case_unless_the_word_is_an_acronym() {
        let missing = io::Error::from_raw_os_error(2);
        assert_eq!(os_error_text(&missing), "no such file or directory (os error 2)");
        assert_eq!(
            os_error_text(&io::Error::other("TLS handshake failed")),
            "TLS handshake failed"
        );
        assert_eq!(os_error_text(&io::Error::other("")), "");
    }
}
