// The hook runner of @google/gemini-cli-core (pinned by `cargo xtask bench peers`): its
// HookRunner, given the configuration it reads (a trusted folder, no environment redaction),
// running every matching hook in parallel on a BeforeTool event (PreToolUse's Gemini name).
import { fail, measure, workload } from './common.mjs';

const root = process.env.PEERS_NODE_MODULES;
const { HookRunner } = await import(`${root}/@google/gemini-cli-core/dist/src/hooks/hookRunner.js`);

const work = workload();
const runner = new HookRunner({
  isTrustedFolder: () => true,
  sanitizationConfig: { enableEnvironmentVariableRedaction: false },
  storage: { getPlansDir: () => work.payload.cwd },
});
const hooks = work.commands.map((command) => ({ type: 'command', command, timeout: 10000 }));
const input = { ...work.payload, hook_event_name: 'BeforeTool', timestamp: new Date().toISOString() };

await measure(work, async () => {
  const results = await runner.executeHooksParallel(hooks, 'BeforeTool', input);
  if (!results.every((r) => r.success && r.output?.hookSpecificOutput?.permissionDecision === 'allow')) {
    fail(`a hook did not allow: ${JSON.stringify(results.map((r) => r.error?.message ?? r.output))}`);
  }
});
