//! Integration tests of `hooks-native`, one module per area.

// The Insika pairs: order, alteration, halves, empty registries, errors, names.
#[cfg(test)]
mod pairs;
// Seam hooks on the core's dispatcher: decisions, priority, matchers, failures, sources.
#[cfg(test)]
mod seams;
