#!/usr/bin/env python3
"""Rebuilds the committed seed corpora (fuzz/corpus/<target>/) from the workspace's test fixtures.

Run from the repository root: `python3 fuzz/seeds.py`. Each seed is one fixture string (plus the
selector bytes the target reads first); file names are content hashes, as libFuzzer names them.
"""
import hashlib
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
RAW = re.compile(r'r#"(.*?)"#', re.S)
PLAIN = re.compile(r'(?<![#\w])"((?:[^"\\\n]|\\.)*)"')

# Claude Code event names, in `EventName::ALL` order (the claude_output and matcher selectors).
EVENTS = re.findall(
    r"^            (\w+) => \w+ \{",
    (ROOT / "hooks-claude/src/config/event_name.rs").read_text(),
    re.M,
)


def raw_strings(*paths):
    for path in paths:
        yield from RAW.findall((ROOT / path).read_text())


def plain_strings(*paths):
    for path in paths:
        for s in PLAIN.findall((ROOT / path).read_text()):
            try:
                yield json.loads('"' + s + '"')
            except ValueError:
                pass


def write(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def is_object(text):
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def main():
    outputs = [s for s in raw_strings("hooks-claude/src/wire/decode/tests.rs", "hooks-claude/tests/it/e2e.rs")
               if s.lstrip().startswith("{")]
    outputs += [s for s in plain_strings("hooks-claude/src/wire/decode/tests.rs") if s.lstrip().startswith("{")]
    responses = [s for s in raw_strings("hooks-tnsai/tests/it/response.rs", "hooks-tnsai/tests/it/parts.rs")]
    responses += [m.group(0) for s in raw_strings("hooks-tnsai/tests/it/run.rs")
                  for m in re.finditer(r"\{\"hook_protocol_version.*?\}(?=')", s)]

    # codec: what hooks print, objects, NDJSON, text, broken JSON.
    for s in outputs + responses + ["", "  \n", "hello\n", "[1, 2]", "starting\n{\"a\": 1}\n{\"b\": 2}\n",
                                    "{broken\n{\"ok\": 1}", "\xff\xfe ok"]:
        write("codec", s)

    # claude_settings: settings files and hooks.json from the loader's tests (selector 0: settings,
    # 1: plugin hooks.json, 2: managed settings), and frontmatter (3: SKILL.md, 4: sub-agent).
    for s in raw_strings("hooks-claude/tests/it/config.rs", "hooks-claude/tests/it/e2e.rs", "hooks-claude/src/lib.rs"):
        if '"hooks"' in s or '"PreToolUse"' in s:
            write("claude_settings", b"\x00" + s.encode())
            write("claude_settings", b"\x01" + s.encode())
        if "allowManagedHooksOnly" in s or "strictPluginOnlyCustomization" in s or "enabledPlugins" in s:
            write("claude_settings", b"\x02" + s.encode())
    frontmatter = [
        "---\nname: fmt\ndescription: Formats\nhooks:\n  PostToolUse:\n    - matcher: Write|Edit\n"
        "      hooks:\n        - type: command\n          command: ./fmt.sh\n          once: true\n---\n# Body\n",
        "---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: 'true'\n"
        "  SubagentStop: []\n---\n",
        "---\r\nname: x\r\nhooks: [unclosed\r\n---\r\n",
    ]
    for s in frontmatter:
        write("claude_settings", b"\x03" + s.encode())
        write("claude_settings", b"\x04" + s.encode())

    # claude_output: each output on the event it names, under exit 0, 2 and 1, fail open and closed.
    for s in outputs:
        name = re.search(r'"hookEventName"\s*:\s*"(\w+)"', s)
        event = EVENTS.index(name.group(1)) if name and name.group(1) in EVENTS else 0
        for exit_byte, policy in [(0, 0), (3, 0), (4, 1)]:
            write("claude_output", bytes([event, exit_byte, policy]) + s.encode() + b"\x00stderr text")

    # http_answer: responses on the wire (status line, headers, framing) carrying the outputs, on
    # PreToolUse with the 1 MiB cap (0xff) and a 16-byte cap, fail open and closed.
    def http(status, reason, body, framing):
        head = f"HTTP/1.1 {status} {reason}\r\n"
        if framing == "length":
            return (head + f"Content-Length: {len(body.encode())}\r\n\r\n").encode() + body.encode()
        if framing == "chunked":
            data = body.encode()
            chunks = b"".join(b"%x\r\n" % len(data[i:i + 7]) + data[i:i + 7] + b"\r\n"
                              for i in range(0, len(data), 7))
            return (head + "Transfer-Encoding: chunked\r\n\r\n").encode() + chunks + b"0\r\n\r\n"
        return (head + "Connection: close\r\n\r\n").encode() + body.encode()
    answers = [(200, "OK", s) for s in outputs[:20]]
    answers += [(200, "OK", ""), (204, "No Content", ""), (200, "OK", "not json"),
                (500, "Internal Server Error", '{"decision": "block", "reason": "no"}'),
                (301, "Moved Permanently", ""), (404, "Not Found", "missing")]
    pre_tool = EVENTS.index("PreToolUse")
    for status, reason, body in answers:
        for framing in ["length", "chunked", "close"]:
            for cap, policy in [(0xff, 0), (16, 1)]:
                write("http_answer", bytes([pre_tool, cap, policy]) + http(status, reason, body, framing))

    # tnsai_response: every response case, for a tool event (2) and a custom event (12).
    for s in responses:
        write("tnsai_response", b"\x02" + s.encode())
        write("tnsai_response", b"\x0c" + s.encode())

    # tnsai_hook_list: the hook lists of the loader's tests.
    for s in raw_strings("hooks-tnsai/tests/it/config.rs", "hooks-tnsai/tests/it/parts.rs", "hooks-tnsai/src/lib.rs"):
        if "hooks:" in s or "trusted_roots" in s:
            write("tnsai_hook_list", s)

    # matcher: the matcher tests' patterns with their subjects, on PreToolUse and FileChanged.
    pairs = re.findall(r'hits\("((?:[^"\\]|\\.)*)", \w+, "((?:[^"\\]|\\.)*)"\)',
                       (ROOT / "hooks-claude/src/config/matcher.rs").read_text())
    pairs += [(p, "Bash") for p in re.findall(r'classify\(Some\("((?:[^"\\]|\\.)*)"\)',
                                              (ROOT / "hooks-claude/src/config/matcher.rs").read_text())]
    for pattern, subject in pairs:
        for event in ["PreToolUse", "FileChanged"]:
            write("matcher", bytes([EVENTS.index(event)]) + f"{pattern}\n{subject}".encode())
    write("matcher", bytes([EVENTS.index("PreToolUse")]) + b"Bash|Write\nmcp__.*\nEdit.*\n*\nNotebookEdit")

    # codex, copilot, cursor, gemini: the example projects' files and the loaders' test files (the
    # selector's config readers), and the outputs of the decoders' tests on every event, under
    # exit 0 and 2.
    dialects = {
        "codex": (3, ["examples/codex-project/.codex/hooks.json"], "hooks-codex/tests/it/config.rs",
                  "hooks-codex/src/decode.rs", "hooks-codex/tests/it/outputs.rs"),
        "copilot": (3, ["examples/copilot-project/.github/hooks/policy.json"], "hooks-copilot/tests/it/load.rs",
                    "hooks-copilot/src/decode/tests.rs", "hooks-copilot/tests/it/run.rs"),
        "cursor": (2, ["examples/cursor-project/.cursor/hooks.json"], "hooks-cursor/tests/it/load.rs",
                   "hooks-cursor/src/decode/tests.rs", "hooks-cursor/tests/it/run.rs"),
        "gemini": (2, ["examples/gemini-project/.gemini/settings.json"], "hooks-gemini/src/config/read.rs",
                   "hooks-gemini/src/decode.rs", "hooks-gemini/tests/gemini.rs"),
    }
    for target, (modulus, files, loader_tests, *decoder_tests) in dialects.items():
        configs = [(ROOT / f).read_text() for f in files]
        configs += [s for s in raw_strings(loader_tests) if "hooks" in s]
        for text in configs:
            toml = target == "codex" and "[hooks" in text
            write(target, bytes([1 if toml else 0, 0]) + text.encode())
        outputs = [s for s in raw_strings(*decoder_tests) if s.lstrip().startswith("{")]
        outputs += [s for s in plain_strings(*decoder_tests) if s.lstrip().startswith("{") and is_object(s)]
        output_selector = modulus - 1
        for i, text in enumerate(outputs):
            for exit_byte in [0, 3]:
                # The exit byte also picks the event: step through them.
                write(target, bytes([output_selector, exit_byte + 8 * i]) + text.encode() + b"\x00stderr text")


if __name__ == "__main__":
    main()
