//! Integration tests of `hook-protocol`, one module per area.

mod exec;
