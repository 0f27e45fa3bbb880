//! Plain words: a shell-form command that `sh -c` would only split into words and run, read
//! into those words, so that its program can be started without the shell (GNU make's fast
//! path).
//!
//! A command is plain when, read by the rules of the POSIX shell language, it is one simple
//! command whose words need no expansion but the harness's own variables:
//!
//! - unquoted, a word holds letters, digits, non-ASCII bytes and `_ - . / , : + @ % =` only
//!   (no quote character inside it but those below, no `\`, `$`, backquote, glob character
//!   `* ? [ ]`, redirection `< >`, operator `; & | ( )`, brace, `~`, `#`, `!`, `^`, nor any
//!   control character: no newline, so one command);
//! - a single-quoted part holds anything but `'` and control characters;
//! - a double-quoted part holds anything but `"`, `\`, `$`, backquote and control
//!   characters;
//! - a known variable (`$NAME` or `${NAME}`, in or out of double quotes) is replaced by its
//!   value, which the harness knows because it sets it (`CLAUDE_PROJECT_DIR`,
//!   `CLAUDE_PLUGIN_ROOT`, `CLAUDE_PLUGIN_DATA`); unquoted, only when the value would not be
//!   split or globbed (not empty, no blank, no newline, no `* ? [`);
//! - words are separated by unquoted spaces and tabs;
//! - the first word, the program, is neither an assignment (it holds no `=`), a reserved word
//!   nor the name of a shell builtin (`cd`, `echo`, `exit`, `.`, `test`, `[`, ...: `sh`
//!   would run its builtin, not a program of that name), quoted or not.
//!
//! Anything else is not plain and runs through `sh -c` as written.

/// Reserved words and builtins of `dash`, `bash` and POSIX: a first word named like one of
/// them is not a program `sh` would start.
const SHELL_NAMES: &[&str] = &[
    // Reserved words.
    "!",
    "{",
    "}",
    "[[",
    "]]",
    "case",
    "coproc",
    "do",
    "done",
    "elif",
    "else",
    "esac",
    "fi",
    "for",
    "function",
    "if",
    "in",
    "select",
    "then",
    "time",
    "until",
    "while",
    // Special and regular builtins of dash and POSIX.
    ".",
    ":",
    "[",
    "alias",
    "bg",
    "break",
    "cd",
    "chdir",
    "command",
    "continue",
    "echo",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "hash",
    "jobs",
    "kill",
    "local",
    "newgrp",
    "printf",
    "pwd",
    "read",
    "readonly",
    "return",
    "set",
    "shift",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
    // Builtins of bash.
    "bind",
    "builtin",
    "caller",
    "compgen",
    "complete",
    "compopt",
    "declare",
    "dirs",
    "disown",
    "enable",
    "help",
    "history",
    "let",
    "logout",
    "mapfile",
    "popd",
    "pushd",
    "readarray",
    "shopt",
    "source",
    "suspend",
    "typeset",
];

/// Whether `c` may stand unquoted in a plain word.
fn plain_unquoted(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || !c.is_ascii()
        || matches!(c, '_' | '-' | '.' | '/' | ',' | ':' | '+' | '@' | '%' | '=')
}

/// Whether `c` may stand inside double quotes in a plain word.
fn plain_double_quoted(c: char) -> bool {
    !c.is_control() && !matches!(c, '"' | '\\' | '$' | '`')
}

/// Whether the value of a variable stands unquoted as one word, unchanged by field splitting
/// (the default `IFS`, which `sh` sets at startup whatever it inherits) and pathname expansion.
fn splits_not(value: &str) -> bool {
    !value.is_empty() && !value.contains([' ', '\t', '\n', '*', '?', '['])
}

/// The words of `line` when it is a plain command (see the module documentation), with the
/// variables of `known` (name, value) replaced; `None` when it is not plain.
pub(crate) fn words(line: &str, known: &[(&str, &str)]) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.next_if(|&c| c == ' ' || c == '\t').is_some() {}
        if chars.peek().is_none() {
            break;
        }
        let mut word = String::new();
        while let Some(&c) = chars.peek() {
            match c {
                ' ' | '\t' => break,
                '\'' => {
                    chars.next();
                    loop {
                        match chars.next()? {
                            '\'' => break,
                            c if c.is_control() => return None,
                            c => word.push(c),
                        }
                    }
                }
                '"' => {
                    chars.next();
                    loop {
                        match chars.next()? {
                            '"' => break,
                            '$' => word.push_str(variable(&mut chars, known)?),
                            c if plain_double_quoted(c) => word.push(c),
                            _ => return None,
                        }
                    }
                }
                '$' => {
                    chars.next();
                    let value = variable(&mut chars, known)?;
                    if !splits_not(value) {
                        return None;
                    }
                    word.push_str(value);
                }
                c if plain_unquoted(c) => {
                    chars.next();
                    word.push(c);
                }
                _ => return None,
            }
        }
        words.push(word);
    }
    let program = words.first()?;
    if program.contains('=') || SHELL_NAMES.contains(&program.as_str()) {
        return None;
    }
    Some(words)
}

/// The value of the known variable referenced after a `$` (`NAME` or `{NAME}`); `None` for
/// anything else (another variable, a special parameter, a `${...}` with an operator).
fn variable<'a>(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    known: &[(&str, &'a str)],
) -> Option<&'a str> {
    let braced = chars.next_if_eq(&'{').is_some();
    let mut name = String::new();
    while let Some(c) = chars.next_if(|c| c.is_ascii_alphanumeric() || *c == '_') {
        name.push(c);
    }
    if braced && chars.next() != Some('}') {
        return None;
    }
    // A name starts with a letter or `_`; `$1`, `$0` are parameters, never known.
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    known.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[(&str, &str)] =
        &[("CLAUDE_PROJECT_DIR", "/work/my project"), ("CLAUDE_PLUGIN_ROOT", "/plug/p-1.0")];

    fn plain(line: &str) -> Option<Vec<String>> {
        words(line, KNOWN)
    }

    fn w(words: &[&str]) -> Option<Vec<String>> {
        Some(words.iter().map(|s| (*s).to_owned()).collect())
    }

    #[test]
    fn plain_words_split_on_blanks() {
        assert_eq!(plain("/usr/bin/hook"), w(&["/usr/bin/hook"]));
        assert_eq!(
            plain("  ./x.sh  --flag=1\ta,b:c+d@e%f  "),
            w(&["./x.sh", "--flag=1", "a,b:c+d@e%f"])
        );
        assert_eq!(plain("python3 -m tool.check"), w(&["python3", "-m", "tool.check"]));
        assert_eq!(plain("hook héllo 日本"), w(&["hook", "héllo", "日本"]));
    }

    #[test]
    fn quotes_make_one_word_of_their_content() {
        assert_eq!(plain("x 'a b' \"c d\" e'f'\"g\""), w(&["x", "a b", "c d", "efg"]));
        assert_eq!(plain("x '' \"\""), w(&["x", "", ""]));
        assert_eq!(plain("x '$HOME `id` \\ * ~ #'"), w(&["x", "$HOME `id` \\ * ~ #"]));
        assert_eq!(
            plain("x \"~ # * ? ; | & < > ( ) { } ! ^\""),
            w(&["x", "~ # * ? ; | & < > ( ) { } ! ^"])
        );
    }

    #[test]
    fn known_variables_are_replaced() {
        assert_eq!(
            plain("\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/check.sh"),
            w(&["/work/my project/.claude/hooks/check.sh"])
        );
        assert_eq!(
            plain("\"${CLAUDE_PROJECT_DIR}/.claude/hooks/x.sh\" arg"),
            w(&["/work/my project/.claude/hooks/x.sh", "arg"])
        );
        assert_eq!(plain("${CLAUDE_PLUGIN_ROOT}/hooks/run.py"), w(&["/plug/p-1.0/hooks/run.py"]));
        assert_eq!(plain("$CLAUDE_PLUGIN_ROOT/run"), w(&["/plug/p-1.0/run"]));
    }

    #[test]
    fn a_value_that_would_split_stays_with_the_shell_unquoted() {
        assert_eq!(plain("$CLAUDE_PROJECT_DIR/x"), None, "the value holds a space");
        assert_eq!(words("$D/x", &[("D", "")]), None, "an empty value");
        assert_eq!(words("$D/x", &[("D", "/a*")]), None, "a glob");
        assert_eq!(words("\"$D\"/x", &[("D", "/a*")]), w(&["/a*/x"]), "quoted: as it is");
    }

    #[test]
    fn shell_syntax_is_not_plain() {
        for line in [
            "",
            "   ",
            "a | b",
            "a; b",
            "a && b",
            "a &",
            "a > f",
            "a < f",
            "a 2>&1",
            "$HOME/x",
            "\"$HOME\"/x",
            "${CLAUDE_PROJECT_DIR:-.}/x",
            "$CLAUDE_PROJECT_DIRx",
            "$1",
            "$@",
            "$?",
            "${CLAUDE_PROJECT_DIR",
            "`id`",
            "$(id)",
            "a\\ b",
            "a *",
            "a ?",
            "a [x]",
            "~/x",
            "a ~",
            "a #c",
            "a\nb",
            "a\rb",
            "{ a; }",
            "a {b,c}",
            "! a",
            "a !",
            "(a)",
            "a^b",
            "'a",
            "\"a",
            "\"a\\\"\"",
            "\"a$HOME\"",
            "'a\tb'",
        ] {
            assert_eq!(plain(line), None, "{line:?}");
        }
    }

    #[test]
    fn builtins_keywords_and_assignments_are_not_programs() {
        for line in [
            "cd /tmp",
            "echo hi",
            "exit 3",
            "exec x",
            ". x",
            ": x",
            "[ -f x ]",
            "test -f x",
            "true",
            "false",
            "kill 1",
            "printf x",
            "pwd",
            "read x",
            "set -e",
            "trap x",
            "type x",
            "umask",
            "wait",
            "source x",
            "if",
            "then",
            "time x",
            "while",
            "A=1 x",
            "A=1",
            "'echo' hi",
            "\"cd\" x",
            "'A=1' x",
        ] {
            assert_eq!(plain(line), None, "{line:?}");
        }
        assert_eq!(plain("./echo hi"), w(&["./echo", "hi"]), "a path is never a builtin");
        assert_eq!(plain("x A=1"), w(&["x", "A=1"]), "an argument may hold `=`");
        assert_eq!(plain("/bin/true"), w(&["/bin/true"]));
    }
}
