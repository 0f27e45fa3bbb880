//! The TNSAI `hook_protocol_version 1` dialect on the harness's seams.

mod decode;
mod envelope;
mod event_type;
mod hook;
mod response;
mod shape;
mod trust;

pub use decode::{BLOCK_EXIT_CODE, RecordMeta};
pub use envelope::{
    DEFAULT_TNSAI_VERSION, EnvelopeContext, EnvelopePayload, PROTOCOL_VERSION, Request, Stamp,
};
pub use event_type::{EventSelector, EventType};
pub use hook::{
    BuildError, DEFAULT_TIMEOUT, DIALECT, FRAMEWORK_ENV, TnsaiHook, TnsaiHookBuilder,
    compile_matcher,
};
pub use response::{DecisionKind, ProtocolError, Response, Severity};
pub use shape::{
    ShapeError, ShapeProblem, common_from_context, event_from_parts, known_fields,
    payload_from_object, validate_modified,
};
pub use trust::{TrustError, TrustRoots};
