//! Integration tests of `hooks-native`.

// The Insika pairs: order, alteration, halves, empty registries, errors, names.
mod pairs;
// Seam hooks on the core's dispatcher: decisions, priority, matchers, failures, sources.
mod seams;
