// The hook runner of the @qwen-code/qwen-code bundle (pinned by `cargo xtask bench peers`; its
// published core package predates its hooks): the bundle's HookRunner, exported from a copy of
// the chunk that defines it, running every matching hook in parallel on a PreToolUse event.
import { fail, measure, workload } from './common.mjs';

const { HooksBenchHookRunner: HookRunner } = await import(process.env.PEERS_QWEN_RUNNER);

const work = workload();
const runner = new HookRunner([], undefined);
const hooks = work.commands.map((command) => ({ type: 'command', command, timeout: 10000 }));
const input = { ...work.payload, hook_event_name: 'PreToolUse', timestamp: new Date().toISOString() };

await measure(work, async () => {
  const results = await runner.executeHooksParallel(hooks, 'PreToolUse', input);
  if (!results.every((r) => r.success && r.output?.hookSpecificOutput?.permissionDecision === 'allow')) {
    fail(`a hook did not allow: ${JSON.stringify(results.map((r) => r.error?.message ?? r.output))}`);
  }
});
