// Shared by the peer drivers of `cargo xtask bench peers`: the command line, the workload, the
// timing loop and the report (one JSON line on stdout).
//
// Usage: node DRIVER.mjs WORKLOAD.json EVENTS WARMUP
// WORKLOAD.json: {"commands": [shell-form lines], "payload": {a PreToolUse input}}.

import { readFileSync } from 'node:fs';

export function workload() {
  const [file, events, warmup] = process.argv.slice(2);
  const work = JSON.parse(readFileSync(file, 'utf8'));
  return { ...work, events: Number(events), warmup: Number(warmup) };
}

// Runs `fire` (one event, resolving when every hook answered and was checked) `warmup` times,
// then `events` times, and prints the median and the first event's time, in µs.
export async function measure(work, fire) {
  const started = process.hrtime.bigint();
  let first = null;
  for (let i = 0; i < work.warmup; i++) {
    await fire();
    first ??= Number(process.hrtime.bigint() - started) / 1e3;
  }
  const samples = [];
  for (let i = 0; i < work.events; i++) {
    const t = process.hrtime.bigint();
    await fire();
    const us = Number(process.hrtime.bigint() - t) / 1e3;
    first ??= Number(process.hrtime.bigint() - started) / 1e3;
    samples.push(us);
  }
  samples.sort((a, b) => a - b);
  const median = samples.length ? samples[Math.floor(samples.length / 2)] : 0;
  process.stdout.write(JSON.stringify({ median_us: median, first_us: first }) + '\n');
}

// Whether a hook's stdout is the no-op's allow.
export function allows(stdout) {
  try {
    return JSON.parse(stdout).hookSpecificOutput?.permissionDecision === 'allow';
  } catch {
    return false;
  }
}

export function fail(message) {
  process.stderr.write(`peer driver: ${message}\n`);
  process.exit(1);
}
