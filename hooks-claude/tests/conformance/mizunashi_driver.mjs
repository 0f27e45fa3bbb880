// A Claude Code hook written with @mizunashi_mana/claude-code-hook-sdk: the SDK parses stdin
// (zod schemas), the handler records that it was reached, and the SDK writes the answer (and
// picks the exit code: 2 for `decision: "block"`).
//
// Usage: node mizunashi_driver.mjs MODE RECORD, MODE one of accept, deny, ask, block, context.
import { writeFileSync } from 'node:fs';
import { runHook } from '@mizunashi_mana/claude-code-hook-sdk';

const [mode, record] = process.argv.slice(2);
writeFileSync(record, 'rejected: the SDK did not call the handler');

function answer(event, input) {
  writeFileSync(record, `accepted: ${input.hook_event_name}`);
  switch (mode) {
    case 'deny':
      return { hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: 'mizunashi deny' } };
    case 'ask':
      return { hookSpecificOutput: { hookEventName: event, permissionDecision: 'ask', permissionDecisionReason: 'mizunashi ask' } };
    case 'block':
      return { decision: 'block', reason: 'mizunashi block' };
    case 'context':
      return { hookSpecificOutput: { hookEventName: event, additionalContext: 'mizunashi context' } };
    default:
      return {};
  }
}

void runHook({
  preToolUseHandler: async (i) => answer('PreToolUse', i),
  postToolUseHandler: async (i) => answer('PostToolUse', i),
  notificationHandler: async (i) => answer('Notification', i),
  stopHandler: async (i) => answer('Stop', i),
  subagentStopHandler: async (i) => answer('SubagentStop', i),
  userPromptSubmitHandler: async (i) => answer('UserPromptSubmit', i),
  preCompactHandler: async (i) => answer('PreCompact', i),
});
