//! Runs unmodified Claude Code hooks on the harness's seams.
