//! The TNSAI hook_protocol_version 1 dialect on the harness's seams.
