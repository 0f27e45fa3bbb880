//! Typed in-process hooks on the harness's seams.
